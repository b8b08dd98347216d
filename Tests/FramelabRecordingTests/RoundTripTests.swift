import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

extension RecordingTests {
    @Suite("Writing and reading runs")
    struct RoundTrip {
        @Test("A run written through the API reads back identically, and closing leaves nothing open")
        func oneRun() throws {
            let path = try Scratch.directory().appendingPathComponent("one.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "run-1", attributes: Sample.attributes, stageNames: Sample.stageNames)
            // More than one chunk of every table.
            for i in Int64(0)..<2_500 {
                run.append(Sample.frame(i))
                for s in Int32(0)..<3 { run.append(Sample.timing(i, stage: s)) }
                if i % 5 == 0 { run.append(Sample.event(i)) }
                if i % 9 == 0 { run.append(Sample.failure(i)) }
            }
            try run.finish(status: "completed")
            try run.finish(status: "ignored")  // idempotent
            run.append(Sample.frame(99_999))    // dropped after finish
            file.close()
            #expect(HDF5.openObjectCount() == 0)

            let data = try RecordingReader.readRun(path: path, id: "run-1")
            #expect(data.id == "run-1")
            #expect(data.stageNames == Sample.stageNames)
            #expect(data.frames == (0..<2_500).map { Sample.frame($0) })
            #expect(data.timings == (0..<2_500).flatMap { i in (0..<3).map { Sample.timing(Int64(i), stage: $0) } })
            #expect(data.events == stride(from: Int64(0), to: 2_500, by: 5).map(Sample.event))
            #expect(data.failures == stride(from: Int64(0), to: 2_500, by: 9).map(Sample.failure))
            for (name, value) in Sample.attributes { #expect(data.attributes[name] == value, "\(name)") }
            #expect(data.status == "completed")
            #expect(data.attributes["run_index"] == .int(0))
            #expect(data.attributes["stage_names"] == .strings(Sample.stageNames))
            guard case .string(let created)? = data.attributes["created_utc"],
                  case .string(let finished)? = data.attributes["finished_utc"] else {
                Issue.record("created_utc / finished_utc missing: \(data.attributes)")
                return
            }
            #expect(created.count == 24 && created.hasSuffix("Z"))
            #expect(finished >= created)
            #expect(try RecordingReader.runIDs(path: path) == ["run-1"])
            #expect(HDF5.openObjectCount() == 0)
        }

        @Test("h5py and pandas read the documented schema")
        func h5pyReadsSchema() throws {
            let path = try Scratch.directory().appendingPathComponent("schema.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "demo", attributes: Sample.attributes, stageNames: Sample.stageNames)
            for i in Int64(0)..<10 {
                run.append(Sample.frame(i))
                run.append(Sample.timing(i, stage: 2))
            }
            run.append(Sample.failure(4))
            run.append(Sample.event(6))
            try run.finish(status: "completed")
            let empty = try file.createRun(id: "empty", attributes: [:], stageNames: [])
            try empty.flush()
            file.close()

            let lines = try python("""
                import sys, h5py, numpy as np, pandas as pd
                with h5py.File(sys.argv[1], "r") as f:
                    print("version", int(f.attrs["framelab_schema_version"]), f.attrs["framelab_schema_version"].dtype)
                    print("runs", list(f["runs"]))
                    run = f["runs/demo"]
                    for name in ["frames", "timings", "failures", "events"]:
                        d = run[name]
                        fields = ",".join(f"{k}:{d.dtype.fields[k][0].str}" for k in d.dtype.names)
                        print(name, d.shape, d.maxshape, d.chunks is not None, d.compression, d.dtype.itemsize, fields)
                    a = run.attrs
                    print("attrs", a["source"], a["seed"], a["seed"].dtype, a["target_fps"], a["target_fps"].dtype)
                    print("pipeline", list(a["pipeline"]), len(a["no_tags"]), list(a["stage_names"]))
                    print("status", a["status"], a["run_index"], f["runs/empty"].attrs["run_index"])
                    frames = pd.DataFrame(run["frames"][:])
                    print("frames", list(frames.columns), len(frames), int(frames["pts_ns"].iloc[3]), int(frames["dropped"].sum()))
                    failures = pd.DataFrame(run["failures"][:])
                    print("failure", int(failures["stage"][0]), failures["reason"][0].decode())
                    events = pd.DataFrame(run["events"][:])
                    print("event", events["kind"][0].decode(), events["detail"][0].decode())
                    print("empty", [(n, f["runs/empty"][n].shape) for n in ["frames", "timings", "failures", "events"]])
                """, [path])
            #expect(lines == [
                "version 2 int64",
                "runs ['demo', 'empty']",
                "frames (10,) (None,) True None 42 index:<i8,pts_ns:<i8,arrival_ns:<i8,dropped:|u1,failed:|u1,queue_wait_ns:<i8,latency_ns:<i8",
                "timings (10,) (None,) True None 28 frame:<i8,stage:<i4,start_ns:<i8,duration_ns:<i8",
                "failures (1,) (None,) True None 1036 frame:<i8,stage:<i4,reason:|S1024",
                "events (1,) (None,) True None 1104 frame:<i8,time_ns:<i8,kind:|S64,detail:|S1024",
                "attrs camera:/dev/video0 (ünïcødé) -42 int64 29.97 float64",
                "pipeline ['blur:sigma=1.5', 'threshold:value=128', 'contours'] 0 ['blur', 'threshold', 'contours']",
                "status completed 0 1",
                "frames ['index', 'pts_ns', 'arrival_ns', 'dropped', 'failed', 'queue_wait_ns', 'latency_ns'] 10 99999999 1",
                "failure -1 frame 4 failed: ünïcødé ✓ 'quoted'",
                "event param event 6: threshold=12",
                "empty [('frames', (0,)), ('timings', (0,)), ('failures', (0,)), ('events', (0,))]",
            ])
        }

        @Test("Many runs in one file: reopening adds runs, concurrent runs interleave, ids come in creation order")
        func manyRuns() throws {
            let path = try Scratch.directory().appendingPathComponent("many.h5").path
            do {
                let file = try RecordingFile(path: path)
                let a = try file.createRun(id: "zulu", attributes: ["n": .int(1)], stageNames: ["a"])
                for i in Int64(0)..<100 { a.append(Sample.frame(i)) }
                try a.finish(status: "completed")
                file.close()
            }
            // Reopen: the existing run stays, new ones are added after it.
            let file = try RecordingFile(path: path)
            let b = try file.createRun(id: "alpha", attributes: ["n": .int(2)], stageNames: ["b"])
            for i in Int64(0)..<50 { b.append(Sample.frame(i)) }
            // A second run while the first is still being written.
            let c = try file.createRun(id: "mike", attributes: ["n": .int(3)], stageNames: ["c"])
            for i in Int64(50)..<120 {
                b.append(Sample.frame(i))
                c.append(Sample.frame(1_000 + i))
                if i == 80 { try b.setAttribute("halfway", .double(0.5)) }  // a layout change mid-run
            }
            try c.finish(status: "completed")
            for i in Int64(120)..<130 { b.append(Sample.frame(i)) }
            try b.finish(status: "failed")
            file.close()

            #expect(try RecordingReader.runIDs(path: path) == ["zulu", "alpha", "mike"])
            let zulu = try RecordingReader.readRun(path: path, id: "zulu")
            let alpha = try RecordingReader.readRun(path: path, id: "alpha")
            let mike = try RecordingReader.readRun(path: path, id: "mike")
            #expect(zulu.frames == (0..<100).map { Sample.frame($0) })
            #expect(alpha.frames == (0..<130).map { Sample.frame($0) })
            #expect(mike.frames == (50..<120).map { Sample.frame(1_000 + $0) })
            #expect(zulu.attributes["run_index"] == .int(0) && alpha.attributes["run_index"] == .int(1)
                    && mike.attributes["run_index"] == .int(2))
            #expect(alpha.attributes["halfway"] == .double(0.5))
            #expect([zulu.status, alpha.status, mike.status] == ["completed", "failed", "completed"])
            #expect(HDF5.openObjectCount() == 0)

            // h5py lists the runs in creation order too (link creation order is tracked).
            let lines = try python("""
                import sys, h5py
                with h5py.File(sys.argv[1], "r") as f:
                    print(list(f["runs"]))
                    print([len(f["runs"][r]["frames"]) for r in f["runs"]])
                """, [path])
            #expect(lines == ["['zulu', 'alpha', 'mike']", "[100, 130, 70]"])
        }

        @Test("Text longer than its member is cut at a character boundary and marked with …")
        func longText() throws {
            let path = try Scratch.directory().appendingPathComponent("long.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "r", attributes: [:], stageNames: [])
            let long = String(repeating: "é", count: 600) + "end"   // 1203 bytes of UTF-8
            let exact = String(repeating: "x", count: 1024)
            run.append(FailureRecord(frame: 1, stage: 0, reason: long))
            run.append(FailureRecord(frame: 2, stage: 0, reason: exact))
            run.append(EventRecord(frame: 3, timeNs: 0, kind: String(repeating: "k", count: 70), detail: "a\u{0}b"))
            try run.finish(status: "completed")
            file.close()
            let data = try RecordingReader.readRun(path: path, id: "r")
            let cut = data.failures[0].reason
            #expect(cut == String(repeating: "é", count: 510) + "…")   // 1020 + 3 bytes: no half character
            #expect(cut.utf8.count <= 1024)
            #expect(data.failures[1].reason == exact)
            #expect(data.events[0].kind == String(repeating: "k", count: 61) + "…")
            #expect(data.events[0].detail == "a")
            let lines = try python("""
                import sys, h5py
                with h5py.File(sys.argv[1], "r") as f:
                    r = f["runs/r/failures"][0]["reason"].decode("utf-8")
                    print(len(r), r[-2:])
                """, [path])
            #expect(lines == ["511 é…"])
        }

        @Test("Attributes can be set and replaced mid-run without losing records")
        func attributesMidRun() throws {
            let path = try Scratch.directory().appendingPathComponent("attrs.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "r", attributes: ["mode": .string("warmup")], stageNames: [])
            for i in Int64(0)..<10 { run.append(Sample.frame(i)) }
            try run.setAttribute("mode", .string("steady"))
            try run.setAttribute("mode", .int(3))  // a new type replaces the old one
            try run.setAttribute("list", .strings(["x", "y"]))
            for i in Int64(10)..<20 { run.append(Sample.frame(i)) }
            try run.finish(status: "completed")
            file.close()
            let data = try RecordingReader.readRun(path: path, id: "r")
            #expect(data.attributes["mode"] == .int(3))
            #expect(data.attributes["list"] == .strings(["x", "y"]))
            #expect(data.frames.map(\.index) == Array(0..<20))
        }
    }
}
