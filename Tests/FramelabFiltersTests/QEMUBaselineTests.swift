import FramelabFilters
import FramelabTestSupport
import Foundation
import Testing

/// The baseline level on a CPU without AVX: Debian's qemu-user emulating a Nehalem (SSE4.2,
/// no AVX) runs the built `framelab` and this test binary's kernel tests. The level chosen
/// there must be baseline, its results within the scalar reference's tolerance, and a
/// level the CPU lacks a one-line error. Emulation is slow: the runs are kept small.
@Suite(.serialized) struct QEMUBaselineTests {
    /// Set in the environment of the test binary run under qemu, so it does not start qemu again.
    static let marker = "FRAMELAB_UNDER_QEMU"
    static var isHostRun: Bool { KernelLevelTests.isHostRun }

    static let qemu: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/qemu-x86_64" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    #if arch(x86_64)
    static let isX86 = true
    #else
    static let isX86 = false
    #endif

    /// The emulated CPU: x86-64 with SSE up to 4.2 and POPCNT, no AVX.
    static let cpu = ["-cpu", "Nehalem"]

    /// qemu-x86_64, or a failure saying how to get it (an x86-64 machine must run this test).
    func requireQEMU() throws -> String {
        try #require(Self.qemu, "qemu-x86_64 not found on PATH: install Debian's qemu-user (scripts/setup.sh does)")
    }

    @Test(.enabled(if: Self.isHostRun && Self.isX86, "the qemu baseline run needs an x86-64 build of framelab"))
    func benchChoosesBaselineOnNehalem() throws {
        let qemu = try requireQEMU()
        let r = try TestSupport.run(qemu, Self.cpu + [TestSupport.framelabBinary, "bench", "filters", "--filter", "sepia",
                                                     "--repeats", "1", "--warmup", "0", "--size", "320x240",
                                                     "--chain-size", "320x240"])
        #expect(r.status == 0 && !r.signalled, "\(r.stderr)")
        #expect(r.stderr.contains("bench: kernel level baseline (the best this CPU has; this CPU has baseline)"), "\(r.stderr)")
        #expect(r.stdout.hasPrefix("kernel level: baseline"), "\(r.stdout)")
        #expect(r.stdout.contains("sepia            simd     320x240"), "\(r.stdout)")
    }

    @Test(.enabled(if: Self.isHostRun && Self.isX86, "the qemu baseline run needs an x86-64 build of framelab"))
    func levelsNehalemLacksAreOneLineErrors() throws {
        let qemu = try requireQEMU()
        for level in ["avx2", "avx512"] {
            let r = try TestSupport.run(qemu, Self.cpu + [TestSupport.framelabBinary, "--version"],
                                        environment: ["FRAMELAB_ISA": level])
            #expect(r.status == 1 && !r.signalled)
            #expect(r.stderr == "framelab: error: FRAMELAB_ISA=\(level): this CPU cannot run the \(level) kernels (it has: baseline)\n")
        }
        let bad = try TestSupport.run(qemu, Self.cpu + [TestSupport.framelabBinary, "bench", "filters", "--isa", "avx2"])
        #expect(bad.status == 64 && bad.stderr.contains("--isa=avx2: this CPU cannot run the avx2 kernels"), "\(bad.stderr)")
    }

    /// This test binary's kernel tests under emulation: every filter's SIMD and recipe paths
    /// at the levels the emulated CPU has (baseline only) against the scalar reference.
    @Test(.enabled(if: Self.isHostRun && Self.isX86, "the qemu baseline run needs an x86-64 build of the tests"))
    func kernelTestsPassOnNehalem() throws {
        let qemu = try requireQEMU()
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let suites = "ColorMatrixKernelTests|MatrixCurveKernelTests|KernelLevelTests|FilterPathTests/pathsAgreeWithScalarOnRandomImages"
        let r = try TestSupport.run(qemu, Self.cpu + [exe, "--testing-library", "swift-testing", "--filter", suites],
                                    environment: [Self.marker: "1"])
        #expect(r.status == 0 && !r.signalled, "\(r.stdout.suffix(3000))\n\(r.stderr.suffix(2000))")
        // The run really tested something, at baseline only.
        #expect(r.stdout.contains("pathsAgreeWithScalarOnRandomImages") || r.stderr.contains("pathsAgreeWithScalarOnRandomImages"),
                "\(r.stdout.suffix(2000))")
    }
}
