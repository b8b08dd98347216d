import FramelabTestSupport
import Foundation
import Testing

/// The kernel modules compile for arm64: `scripts/arm64-kernels.sh` compiles FramelabKernels
/// (the portable SIMD code, NEON there) and the four x86 level modules (empty there, behind
/// `#if arch(x86_64)`) into AArch64 objects, against an arm64 standard library module it
/// makes from the toolchain's interface. Nothing runs: no arm64 machine or runtime here.
@Suite struct Arm64CompileTests {
    @Test(.enabled(if: QEMUBaselineTests.isX86, "the cross-compile check is for x86-64 hosts (an arm64 host builds the package itself)"))
    func kernelModulesCompileForArm64() throws {
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/arm64-kernels.sh").path
        let r = try TestSupport.run("/bin/bash", [script])
        #expect(r.status == 0 && !r.signalled, "\(r.stderr.suffix(3000))")
        for module in ["FramelabKernels", "FramelabKernelsAVX2", "FramelabKernelsAVX2VNNI", "FramelabKernelsAVX512",
                       "FramelabKernelsAVX512VBMI"] {
            #expect(r.stdout.contains("arm64 check: \(module) compiled for aarch64-unknown-linux-gnu"), "\(r.stdout)")
        }
    }
}
