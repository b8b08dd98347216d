import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

extension RecordingTests {
    @Suite("Run tables")
    struct RunTables {
        @Test("A table added to a run reads back with h5py: shape, values, NaN and column names")
        func tableRoundTrip() throws {
            let path = try Scratch.directory().appendingPathComponent("tables.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "t", attributes: [:], stageNames: ["detect"])
            run.append(FrameRecord(index: 0, ptsNs: 0, arrivalNs: 1, dropped: false, failed: false))
            try run.addTable(RunTable(name: "detections", columns: ["frame", "score", "mouth_x"],
                                      rows: [[0, 12, .nan], [1, 3.5, 40]]))
            try run.addTable(RunTable(name: "empty", columns: ["a", "b"]))
            try run.finish(status: "completed")
            file.close()
            let script = """
                import sys, h5py, numpy as np
                r = h5py.File(sys.argv[1], "r")["runs/t"]
                d = r["detections"]
                cols = [c.decode() if isinstance(c, bytes) else c for c in d.attrs["columns"]]
                v = d[()]
                print(d.shape, cols, v[0, 1], np.isnan(v[0, 2]), v[1, 2], r["empty"].shape, len(r["frames"]))
                """
            let p = try TestSupport.python(script, arguments: [path])
            #expect(p.status == 0, "\(p.stderr)")
            #expect(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "(2, 3) ['frame', 'score', 'mouth_x'] 12.0 True 40.0 (0, 2) 1")
        }
    }
}
