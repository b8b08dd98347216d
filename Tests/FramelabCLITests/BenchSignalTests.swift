import Foundation
import FramelabTestSupport
import Testing

/// A signal stops `bench filters` before its next case: what was measured is printed and
/// recorded as an `interrupted` run, no goal is judged, and the exit status is 128 + the
/// signal (it used to end at once with nothing recorded).
@Suite struct BenchSignalTests {
    @Test func aSignalStopsTheBenchmarkAndRecordsWhatItMeasured() throws {
        let dir = try TestSupport.makeTemporaryDirectory("bench-signal")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("bench.h5").path
        let errPath = dir.appendingPathComponent("stderr.txt").path
        let outPath = dir.appendingPathComponent("stdout.txt").path
        FileManager.default.createFile(atPath: errPath, contents: nil)
        FileManager.default.createFile(atPath: outPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.framelabBinary)
        process.arguments = ["bench", "filters", "--filter", "sepia", "--filter", "hue", "--paths", "simd,scalar",
                             "--size", "320x240", "--repeats", "1000", "--out", out]
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        try process.run()
        // Wait until the second case starts: the first one is then measured.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline,
              !((try? String(contentsOfFile: errPath, encoding: .utf8))?.contains("sepia on scalar") ?? false) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(process.isRunning, "the benchmark ended before it could be stopped")
        kill(process.processIdentifier, SIGTERM)
        #expect(SignalTests.wait(process, seconds: 60), "the benchmark did not stop")
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        let printed = try String(contentsOfFile: outPath, encoding: .utf8)
        #expect(printed.contains("speed goals: not judged"), "\(printed)")
        #expect(!printed.contains("[met]") && !printed.contains("[NOT met]"))
        let py = try TestSupport.python("""
            import sys, h5py
            (run,) = h5py.File(sys.argv[1], "r")["runs"].values()   # plain, no swmr=True
            rows = run["bench_results"][:]
            filters = sorted({r.decode() for r in rows["filter"]})
            print(run.attrs["status"], len(run.attrs["goals"]), "sepia" in filters, "hue" in filters)
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        // sepia was measured; hue's cases come after the scalar sepia case it was stopped in.
        #expect(py.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "interrupted 0 True False", "\(py.stdout)")
    }
}
