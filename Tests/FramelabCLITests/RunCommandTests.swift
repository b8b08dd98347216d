import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// End-to-end tests of the `framelab` binary: real sources, real HDF5 files read back by
/// `framelab report` and by h5py.
@Suite(.serialized) struct RunCommandTests {
    func reportJSON(_ file: String) throws -> [String: Any] {
        let result = try TestSupport.framelab(["report", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    }

    @Test func syntheticSepiaRunReportsEveryFrameForTheStage() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("x.h5").path
        let run = try TestSupport.framelab(["run", "--source", "synthetic:640x480@30", "--frames", "300",
                                            "--filter", "sepia", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("300 frames processed"))
        let report = try reportJSON(out)
        let runs = report["runs"] as! [[String: Any]]
        #expect(runs.count == 1)
        let stages = runs[0]["stages"] as! [[String: Any]]
        #expect(stages.map { $0["name"] as! String } == ["sepia"])
        #expect(stages[0]["frames"] as? Int == 300)
        for key in ["p50_ms", "p95_ms", "p99_ms", "max_ms"] { #expect((stages[0][key] as? Double ?? -1) > 0) }
        let over = stages[0]["over_budget"] as! [String: Double]
        #expect(Set(over.keys) == ["24", "30", "60"])
        #expect(runs[0]["dropped"] is Int)
    }

    @Test func h5pyReadsTheRunWithItsAttributesAndDatasets() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("runs.h5").path
        for id in ["first", "second"] {
            let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@500", "--frames", "20",
                                              "--filter", "hue:angle=1", "--filter", "gray", "--out", out,
                                              "--run-id", id, "--policy", "keep-all"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let script = """
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            print(sorted(f["runs"].keys()))
            r = f["runs/second"]
            a = r.attrs
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            print(s(a["source"]), s(a["policy"]), s(a["status"]), int(a["cpu_cores"]) > 0, "framelab" in s(a["command_line"]))
            print([s(x) for x in a["stage_names"]])
            fr = r["frames"][:]
            print(len(fr), [int(i) for i in fr["index"][:3]], int(fr["dropped"].sum()))
            t = r["timings"][:]
            print(len(t), sorted(set(int(x) for x in t["stage"])), bool((t["duration_ns"] > 0).all()))
            """
        let py = try TestSupport.python(script, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        let lines = py.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "['first', 'second']",
            "synthetic:64x48@500 keep-all completed True True",
            "['hue', 'gray']",
            "20 [0, 1, 2] 0",
            "40 [0, 1] True",
        ])
    }

    @Test func runKilledWithSIGKILLLeavesAReadableFile() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("killed.h5").path
        // Watch the file from another process while it is written (SWMR reading) until
        // 60 frames are on disk, then kill the writer: what was flushed must survive.
        let killed = try TestSupport.killFramelabAfterRows(
            ["run", "--source", "synthetic:320x240@100", "--filter", "sepia", "--out", out, "--quiet"],
            rows: 60, table: "frames", in: out, timeoutSeconds: 60)
        #expect(killed.watch.status == 0, "\(killed.watch.stderr)")
        #expect(killed.endedBySignal)
        let seen = killed.seen
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r", swmr=True)  # the killed writer left it marked open
            (rid,) = list(f["runs"].keys())
            r = f["runs"][rid]
            print(len(r["frames"]), len(r["timings"]), r.attrs["status"])
            """, arguments: [out])
        #expect(py.status == 0, "h5py could not read the killed run: \(py.stderr)")
        let fields = py.stdout.split(separator: " ")
        let frames = Int(fields.first ?? "") ?? 0
        #expect(frames >= seen, "\(seen) frames were on disk before the kill, \(frames) after")
        #expect(py.stdout.contains("running"))

        // Plain h5py (no swmr=True) refuses the file until `framelab recover` repairs it.
        let plain = """
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            (rid,) = list(f["runs"].keys())
            print(len(f["runs"][rid]["frames"]), f["runs"][rid].attrs["status"])
            """
        let before = try TestSupport.python(plain, arguments: [out])
        #expect(before.status != 0, "plain h5py opened a file a killed writer left: \(before.stdout)")
        let recovered = try TestSupport.framelab(["recover", out, "--json"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(recovered.stdout.utf8)) as? [String: Any])
        #expect(report["cleared_write_marks"] as? Bool == true)
        #expect((report["interrupted_runs"] as? [String])?.count == 1)
        let after = try TestSupport.python(plain, arguments: [out])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == "\(frames) interrupted\n")
        let again = try TestSupport.framelab(["recover", out])
        #expect(again.status == 0 && again.stdout.contains("nothing to do"))
        let missing = try TestSupport.framelab(["recover", dir.appendingPathComponent("none.h5").path])
        #expect(missing.status != 0 && missing.stderr.contains("none.h5") && !FileManager.default.fileExists(
            atPath: dir.appendingPathComponent("none.h5").path))
    }

    @Test func imageFolderWithACorruptFileRecordsTheFailureAndFinishes() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let images = dir.appendingPathComponent("imgs")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for i in 0..<3 {
            let m = Mat(format: .bgra8, width: 40, height: 30)
            m.fill([Double(i * 50), 80, 160, 255])
            try ImageCodec.write(m, to: images.appendingPathComponent("f\(i).png").path)
        }
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2]).write(to: images.appendingPathComponent("f1x.png"))
        let out = dir.appendingPathComponent("imgs.h5").path
        let r = try TestSupport.framelab(["run", "--source", "images:\(images.path)", "--filter", "sepia", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 frames processed, 0 dropped, 1 failed"))
        let py = try TestSupport.python("""
            import sys, h5py
            r = h5py.File(sys.argv[1], "r")["runs"]
            r = r[list(r.keys())[0]]
            fl = r["failures"][:]
            print(len(fl), int(fl["frame"][0]), int(fl["stage"][0]), "f1x.png" in (fl["reason"][0].decode() if isinstance(fl["reason"][0], bytes) else fl["reason"][0]))
            print(int(r["frames"]["failed"].sum()))
            """, arguments: [out])
        #expect(py.stdout == "1 2 -1 True\n1\n", "\(py.stderr)")
    }

    @Test func videoAndImageSourcesRunThroughTheCLI() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let video = dir.appendingPathComponent("v.avi").path
        let writer = try VideoWriter(path: video, fps: 30, width: 48, height: 32)
        for i in 0..<15 {
            let m = Mat(format: .bgra8, width: 48, height: 32)
            m.fill([Double(i * 10), 0, 0, 255])
            try writer.write(m)
        }
        writer.close()
        let r = try TestSupport.framelab(["run", "--source", "video:\(video)", "--filter", "gray"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("15 frames processed, 0 dropped"))
        let image = dir.appendingPathComponent("one.png").path
        try ImageCodec.write(Mat(format: .bgra8, width: 8, height: 8), to: image)
        let i = try TestSupport.framelab(["run", "--source", "image:\(image)?repeat=4", "--filter", "sepia"])
        #expect(i.status == 0, "\(i.stderr)")
        #expect(i.stdout.contains("4 frames processed"))
    }
}
