import FramelabTestSupport
import Foundation
import Testing

/// `framelab run --detector` writes detections as frames are processed: a run killed
/// mid-way keeps the detections already flushed, as it keeps its timings.
@Suite struct RunDetectorRecordingTests {
    @Test func aKilledRunKeepsTheDetectionsAlreadyMade() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("killed-detect.h5").path
        let astronaut = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        // One face per frame, far more frames than the test waits for. Read the file while it
        // is written (SWMR) until 20 detections are on disk, then kill the writer.
        let killed = try TestSupport.killFramelabAfterRows(
            ["run", "--source", "image:\(astronaut)?repeat=100000", "--detector", "opencv-haar:accuracy=low", "--out", out, "--quiet"],
            rows: 20, table: "detections", in: out, timeoutSeconds: 120)
        #expect(killed.watch.status == 0, "\(killed.watch.stderr)")
        #expect(killed.endedBySignal)
        let seen = killed.seen
        let py = try TestSupport.python("""
            import sys, h5py, numpy as np
            f = h5py.File(sys.argv[1], "r", swmr=True)
            (rid,) = list(f["runs"].keys())
            r = f["runs"][rid]
            v = r["detections"][()]
            frames = v["frame"]
            # Every recorded frame found the one face, near where it is in astronaut.png.
            cx = v["x"] + v["width"] / 2
            print(v.shape[0], len(np.unique(frames)) == v.shape[0], bool(((cx > 150) & (cx < 300)).all()),
                  r.attrs["status"])
            """, arguments: [out])
        #expect(py.status == 0, "h5py could not read the killed run: \(py.stderr)")
        let fields = py.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(fields.count == 4, "\(py.stdout)")
        guard fields.count == 4 else { return }
        #expect((Int(fields[0]) ?? 0) >= seen, "\(seen) detections were on disk before the kill, \(fields[0]) after")
        #expect(fields[1] == "True" && fields[2] == "True")
        #expect(fields[3] == "running")
    }
}
