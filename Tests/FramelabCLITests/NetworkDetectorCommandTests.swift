import FramelabTestSupport
import Foundation
import Testing

/// The network detectors (opencv-ssd, centerface, mtcnn) through the real binary: an
/// evaluation with each, its model files, checksums and licences in `elements` (read with
/// h5py), workers, availability in `framelab detectors`, and files written before the
/// `model_licence` column.
@Suite struct NetworkDetectorCommandTests {
    static let sample = "csv:" + TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
    static let detectors = ["--detector", "opencv-ssd", "--detector", "centerface", "--detector", "mtcnn"]

    /// Each detector's AP from `eval --json`.
    func evaluate(_ extra: [String]) throws -> [String: Double] {
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample] + Self.detectors + extra + ["--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["detectors"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            (row["name"] as? String).flatMap { name in (row["ap"] as? Double).map { (name, $0) } }
        })
    }

    @Test func evalFindsFacesAndRecordsModelChecksumsAndLicences() throws {
        let dir = try TestSupport.makeTemporaryDirectory("dnn-eval")
        let out = dir.appendingPathComponent("eval.h5").path
        let ap = try evaluate(["--out", out, "--run-id", "nets"])
        #expect(Set(ap.keys) == ["opencv-ssd", "centerface", "mtcnn"], "\(ap)")
        #expect(ap.values.allSatisfy { $0 > 0 }, "\(ap)")
        // The elements table, read with h5py: each model file's SHA-256 (checked here with
        // hashlib) and licence, one entry per file joined with ';'.
        let script = """
            import sys, h5py, hashlib
            el = h5py.File(sys.argv[1], "r")["runs/nets/elements"][()]
            for row in el:
                paths = row["model_path"].decode().split(";")
                sums = row["model_sha256"].decode().split(";")
                ok = sums == [hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths]
                print(row["element"].decode(), len(paths), ok, row["model_licence"].decode())
            """
        let p = try TestSupport.python(script, arguments: [out])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.stdout.split(separator: "\n") == ["opencv-ssd 2 True BSD-3-Clause;BSD-3-Clause",
                                                     "centerface 1 True MIT",
                                                     "mtcnn 3 True MIT;MIT;MIT"], "\(p.stdout)")
    }

    @Test func twoWorkersGiveTheSameAccuracy() throws {
        let one = try evaluate([])
        let two = try evaluate(["--workers", "2"])
        for (name, value) in one {
            #expect(abs((two[name] ?? -1) - value) < 1e-9, "\(name): \(value) with one worker, \(two[name] ?? -1) with two")
        }
    }

    @Test func detectorsListsAvailabilityAndTheFetchCommand() throws {
        let r = try TestSupport.framelab(["detectors"])
        #expect(r.status == 0)
        for name in ["opencv-ssd", "centerface", "mtcnn"] {
            #expect(r.stdout.contains("\(name)  [available]"), "\(r.stdout)")
        }
        let dir = try TestSupport.makeTemporaryDirectory("no-models")
        let env = ProcessInfo.processInfo.environment.merging(["FRAMELAB_MODELS": dir.path]) { $1 }
        let missing = try TestSupport.framelab(["detectors"], environment: env)
        #expect(missing.stdout.contains("mtcnn  [unavailable]") && missing.stdout.contains("opencv-haar  [available]"))
        #expect(missing.stdout.contains("'\(dir.path)/centerface.onnx'") && missing.stdout.contains("bash scripts/fetch-models.sh"))
        let json = try TestSupport.framelab(["detectors", "--json"], environment: env)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entries = try #require(listing["detectors"] as? [[String: Any]])
        let ssd = try #require(entries.first { $0["name"] as? String == "opencv-ssd" })
        #expect(ssd["available"] as? Bool == false)
        #expect((ssd["missing_files"] as? [String])?.count == 2)
        #expect(entries.first { $0["name"] as? String == "cascade" }?["available"] as? Bool == true)
        // Running one then is a one-line error naming the file and the command.
        let run = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "centerface"], environment: env)
        #expect(run.status != 0 && run.stderr.contains("\(dir.path)/centerface.onnx") && run.stderr.contains("fetch-models.sh"))
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// A shard written before `model_licence` existed (and with 64-byte checksums) still
    /// merges: the Swift reader matches columns by name and leaves the new one empty.
    @Test func elementsWithoutTheLicenceColumnStillRead() throws {
        let dir = try TestSupport.makeTemporaryDirectory("dnn-old")
        let shards = (0..<2).map { dir.appendingPathComponent("shard-\($0).h5").path }
        for k in 0..<2 {
            let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "centerface", "--limit", "2",
                                              "--shard", "\(k)/2", "--out", shards[k], "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let downgrade = """
            import sys, h5py, numpy as np
            for path in sys.argv[1:]:
                with h5py.File(path, "r+") as f:
                    run = f["runs"][list(f["runs"])[0]]
                    rows = run["elements"][()]
                    utf8 = lambda t: h5py.string_dtype("utf-8", t.itemsize) if t.kind == "S" else t
                    fields = [(n, utf8(rows.dtype[n]) if n != "model_sha256" else h5py.string_dtype("utf-8", 64))
                              for n in rows.dtype.names if n != "model_licence"]
                    old = np.zeros(rows.shape, dtype=fields)
                    for n, _ in fields:
                        old[n] = rows[n]
                    del run["elements"]
                    run.create_dataset("elements", data=old, maxshape=(None,), chunks=(64,))
                    assert h5py.File(path, "r")["runs"][list(f["runs"])[0]]["elements"].dtype.names[-1] == "model_sha256"
            """
        let d = try TestSupport.python(downgrade, arguments: shards)
        #expect(d.status == 0, "\(d.stderr)")
        let merged = dir.appendingPathComponent("merged.h5").path
        let m = try TestSupport.framelab(["merge", merged] + shards + ["--run-id", "m"])
        #expect(m.status == 0, "\(m.stderr)")
        let read = """
            import sys, h5py
            row = h5py.File(sys.argv[1], "r")["runs/m/elements"][()][0]
            print(row["element"].decode(), len(row["model_sha256"].decode()), repr(row["model_licence"].decode()))
            """
        let p = try TestSupport.python(read, arguments: [merged])
        #expect(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "centerface 64 ''", "\(p.stdout) \(p.stderr)")
    }
}
