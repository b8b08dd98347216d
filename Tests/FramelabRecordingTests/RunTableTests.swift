import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

/// A table row of every column type, for the tests.
private struct Probe: TableRow, Equatable {
    var frame: Int64
    var stage: Int32
    var score: Double
    var grade: Int8
    var note: String

    static let layout = TableLayout(name: "probes", columns: [
        TableColumn("frame", .int64), TableColumn("stage", .stage), TableColumn("score", .float64),
        TableColumn("grade", .named8([("low", 0), ("high", 1)])), TableColumn("note", .text(bytes: 8)),
    ], chunkRows: 4)

    init(frame: Int64, stage: Int32, score: Double, grade: Int8, note: String) {
        self.frame = frame; self.stage = stage; self.score = score; self.grade = grade; self.note = note
    }

    func encode(to e: inout RowEncoder) {
        e.int64(frame); e.int32(stage); e.float64(score); e.int8(grade); e.text(note, bytes: 8)
    }

    init(from d: inout RowDecoder) {
        self.init(frame: d.int64(), stage: d.int32(), score: d.float64(), grade: d.int8(), note: d.text(bytes: 8))
    }
}

extension RecordingTests {
    @Suite("Run tables")
    struct RunTables {
        @Test("A table created with the run grows with every flush and reads back typed, and in h5py by name")
        func tableRoundTrip() throws {
            let path = try Scratch.directory().appendingPathComponent("tables.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "t", attributes: [:], stageNames: ["gray", "detect", "gray"],
                                         tables: [Probe.layout])
            let rows = (0..<10).map { (i: Int) -> Probe in
                let stage: Int32 = i == 9 ? -1 : Int32(i % 3)
                let score: Double = i == 1 ? .nan : Double(i)
                let note = i == 2 ? "much too long" : "n\(i)"
                return Probe(frame: Int64(i), stage: stage, score: score, grade: Int8(i % 2), note: note)
            }
            run.append(Array(rows[0..<6]))
            try run.flush()
            #expect(try RecordingReader.readRows(Probe.self, path: path, runID: "t")?.count == 6)
            run.append(Array(rows[6...]))
            try run.finish(status: "completed")
            file.close()

            let back = try #require(try RecordingReader.readRows(Probe.self, path: path, runID: "t"))
            #expect(back.count == 10)
            #expect(back[0] == rows[0] && back[9] == rows[9] && back[1].score.isNaN && back[2].note == "much …")
            #expect(try RecordingReader.readRows(BenchlessProbe.self, path: path, runID: "t") == nil)
            let script = """
                import sys, h5py, numpy as np
                d = h5py.File(sys.argv[1], "r")["runs/t/probes"]
                stages = h5py.check_enum_dtype(d.dtype["stage"])
                grades = h5py.check_enum_dtype(d.dtype["grade"])
                names = {v: k for k, v in stages.items()}
                print(d.shape, d.maxshape, d.chunks, sorted(stages.items(), key=lambda kv: kv[1]), sorted(grades))
                print([names[s] for s in d["stage"]][:4], names[d["stage"][9]], d["note"][2].decode())
                """
            let p = try TestSupport.python(script, arguments: [path])
            #expect(p.status == 0, "\(p.stderr)")
            #expect(p.stdout.split(separator: "\n").map(String.init) == [
                "(10,) (None,) (4,) [('(source)', -1), ('gray', 0), ('detect', 1), ('gray #2', 2)] ['high', 'low']",
                "['gray', 'detect', 'gray #2', 'gray'] (source) much …",
            ])
        }

        @Test("A table name given twice, or one of the record tables, is refused before the file changes")
        func repeatedTableNames() throws {
            let path = try Scratch.directory().appendingPathComponent("twice.h5").path
            let file = try RecordingFile(path: path)
            #expect(throws: FramelabError.self) {
                try file.createRun(id: "t", attributes: [:], stageNames: [], tables: [Probe.layout, Probe.layout])
            }
            #expect(throws: FramelabError.self) {
                try file.createRun(id: "t", attributes: [:], stageNames: [], tables: [FrameRecord.layout])
            }
            file.close()
            #expect(try RecordingReader.runIDs(path: path).isEmpty)
        }
    }
}

/// A table no run has.
private struct BenchlessProbe: TableRow {
    static let layout = TableLayout(name: "absent", columns: [TableColumn("x", .int64)])
    func encode(to e: inout RowEncoder) {}
    init(from d: inout RowDecoder) {}
}
