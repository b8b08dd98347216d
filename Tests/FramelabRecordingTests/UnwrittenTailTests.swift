import Foundation
import FramelabCore
@testable import FramelabRecording
import Testing

extension RecordingTests {
    /// A writer that dies between growing a table and writing its rows (a file size limit,
    /// a kill during a flush) leaves rows HDF5 counts but never wrote, read back as zeros.
    /// Repairing the file cuts them from the run it marks `interrupted`, and only there.
    @Suite("Recovery: rows counted but never written")
    struct UnwrittenTail {
        /// Grows `frames` and `timings` of run `left` with zero rows (h5py's resize leaves
        /// them unwritten) and marks it `running`, as a killed writer leaves it; grows
        /// `frames` of run `done` too, whose status stays `completed`.
        static let killWriter = """
            import sys, h5py
            with h5py.File(sys.argv[1], "r+") as f:
                for run, grow in (("left", {"frames": 2500, "timings": 3}), ("done", {"frames": 4})):
                    r = f["runs"][run]
                    for name, extra in grow.items():
                        r[name].resize((len(r[name]) + extra,))
                f["runs/left"].attrs["status"] = "running"
            """

        @Test func repairingCutsTheZeroTailOfTheInterruptedRunOnly() throws {
            let path = try Scratch.directory().appendingPathComponent("tail.h5").path
            let file = try RecordingFile(path: path)
            for id in ["left", "done"] {
                let run = try file.createRun(id: id, attributes: [:], stageNames: ["s"])
                for i in Int64(0)..<3000 { run.append(Sample.frame(i)); run.append(Sample.timing(i, stage: 0)) }
                try run.finish(status: "completed")
            }
            file.close()
            _ = try python(Self.killWriter, [path])
            #expect(try RecordingReader.readRun(path: path, id: "left").frames.count == 5500)

            let repaired = try RecordingFile(path: path)
            repaired.close()
            #expect(repaired.interruptedOnOpen == ["left"])
            // 2500 zero rows span three of the blocks read from the end.
            #expect(repaired.unwrittenRowsCutOnOpen == ["left": ["frames": 2500, "timings": 3]])
            let left = try RecordingReader.readRun(path: path, id: "left")
            #expect(left.status == "interrupted")
            #expect(left.frames == (0..<3000).map(Sample.frame))
            #expect(left.timings == (0..<3000).map { Sample.timing($0, stage: 0) })
            // A finished run is never touched, whatever its tables end in.
            #expect(try RecordingReader.readRun(path: path, id: "done").frames.count == 3004)
        }
    }
}
