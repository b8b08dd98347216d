import Foundation
import FramelabTestSupport
import Testing

/// `eval` records each image as it is evaluated: SIGTERM stops it after the images in
/// progress with its record kept and scored (exit 143), and kill -9 loses at most the last
/// half second.
@Suite struct EvalInterruptTests {
    /// 30 seeded composites: long enough to stop in the middle.
    static func composites() throws -> (dir: URL, dataset: String) {
        let dir = try TestSupport.makeTemporaryDirectory("eval-interrupt")
        let images = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path
        let c = try TestSupport.framelab(["dataset", "compose", "--out", dir.path, "--count", "30", "--sample-images", images])
        #expect(c.status == 0, "\(c.stderr)")
        return (dir, "csv:" + dir.appendingPathComponent("faces.csv").path)
    }

    @Test func sigtermStopsAfterTheImagesInProgressAndKeepsAScoredRecord() throws {
        let (dir, dataset) = try Self.composites()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("e.h5").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.framelabBinary)
        process.arguments = ["eval", "--dataset", dataset, "--detector", "opencv-haar", "--out", out, "--run-id", "e", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try TestSupport.waitForRows(3, table: "frames", in: out, timeoutSeconds: 120)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        let py = try TestSupport.python("""
            import sys, h5py
            r = h5py.File(sys.argv[1], "r")["runs"]["e"]
            m = r["detector_metrics"][:]
            fm = r["frame_matches"][:]
            print(r.attrs["status"], len(r["frames"]), len(fm), int(m["images"][0]), int(m["faces"][0]) == int(fm["faces"].sum()))
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        let fields = py.stdout.split(separator: " ").map(String.init)
        #expect(fields.first == "interrupted", "\(py.stdout)")
        let frames = Int(fields.count > 1 ? fields[1] : "") ?? 0
        // Stopped in the middle: some images, not all, each recorded whole and scored.
        #expect(frames >= 3 && frames < 30, "\(py.stdout)")
        #expect(fields.count == 5 && fields[2] == fields[1] && fields[3] == fields[1] && fields[4] == "True\n", "\(py.stdout)")
    }

    @Test func killNineKeepsTheImagesFlushedBeforeIt() throws {
        let (dir, dataset) = try Self.composites()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("k.h5").path
        let killed = try TestSupport.killFramelabAfterRows(
            ["eval", "--dataset", dataset, "--detector", "opencv-haar", "--out", out, "--run-id", "k", "--quiet"],
            rows: 4, table: "frame_matches", in: out, timeoutSeconds: 120)
        #expect(killed.endedBySignal)
        let recovered = try TestSupport.framelab(["recover", out])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let py = try TestSupport.python("""
            import sys, h5py
            r = h5py.File(sys.argv[1], "r")["runs"]["k"]
            print(r.attrs["status"], len(r["frame_matches"]), len(r["ground_truth"]) > 0)
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        let fields = py.stdout.split(separator: " ")
        #expect(fields.first == "interrupted" && (Int(fields.count > 1 ? fields[1] : "") ?? 0) >= killed.seen, "\(py.stdout)")
    }
}
