import FramelabCore
import FramelabTestSupport
import Foundation
import Testing

/// `framelab eval --predictions` and `framelab export` through the real binary: a real
/// opencv-haar run on the bundled sample exported in each format and imported back must
/// score exactly as the detector did.
@Suite struct PredictionsCommandTests {
    static let sample = "csv:" + TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path

    /// The scores of one row of `eval --json`.
    struct Scores: Equatable {
        let ap, precision, recall, f1: Double
        let truePositives, falsePositives, images, faces: Int
    }

    /// One opencv-haar eval of the sample recorded into a file, made once (the detector is the slow part).
    struct HaarRun {
        let dir: URL
        let file: String
        let scores: Scores

        static func make() throws -> HaarRun {
            let dir = try TestSupport.makeTemporaryDirectory("framelab-predictions")
            let file = dir.appendingPathComponent("haar.h5").path
            let r = try TestSupport.framelab(["eval", "--dataset", PredictionsCommandTests.sample, "--detector", "opencv-haar",
                                              "--out", file, "--run-id", "haar", "--json", "--quiet"])
            guard r.status == 0 else { throw FramelabError(.io, "haar eval failed: \(r.stderr)") }
            let rows = try PredictionsCommandTests.rows(r.stdout)
            return HaarRun(dir: dir, file: file, scores: try #require(rows["opencv-haar"]))
        }
    }

    static let haar = Result { try HaarRun.make() }

    /// Each detector's scores by name, from `eval --json` output.
    static func rows(_ stdout: String) throws -> [String: Scores] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "\(stdout)")
        let rows = try #require(json["detectors"] as? [[String: Any]])
        var out: [String: Scores] = [:]
        for row in rows {
            func d(_ k: String) throws -> Double { try #require(row[k] as? Double, "\(k)") }
            func i(_ k: String) throws -> Int { try #require(row[k] as? Int, "\(k)") }
            out[try #require(row["name"] as? String)] = Scores(ap: try d("ap"), precision: try d("precision"),
                                                              recall: try d("recall"), f1: try d("f1"),
                                                              truePositives: try i("true_positives"),
                                                              falsePositives: try i("false_positives"),
                                                              images: try i("images"), faces: try i("faces"))
        }
        return out
    }

    /// The JSON rows of `eval --json`, as objects (for the null timings).
    static func rawRows(_ stdout: String) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require(json["detectors"] as? [[String: Any]])
    }

    @Test(arguments: ["wider", "fddb", "coco"])
    func exportThenImportScoresExactlyAsTheDetector(format: String) throws {
        let haar = try Self.haar.get()
        let out = haar.dir.appendingPathComponent("export-\(format)" + (format == "coco" ? ".json" : "")).path
        let e = try TestSupport.framelab(["export", haar.file, "--format", format, "--out", out, "--json"])
        #expect(e.status == 0, "\(e.stderr)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(e.stdout.utf8)) as? [String: Any])
        #expect(written["run"] as? String == "haar" && written["names"] as? String == "dataset")
        let exports = try #require(written["exports"] as? [[String: Any]])
        #expect(exports.count == 1 && exports[0]["path"] as? String == out && exports[0]["images"] as? Int == haar.scores.images)
        #expect(exports[0]["detections"] as? Int == haar.scores.truePositives + haar.scores.falsePositives)

        var dataset = Self.sample
        if format == "coco" {
            // A csv dataset has no COCO ids: export wrote the matching ground truth beside the results.
            let truth = try #require(written["ground_truth"] as? String)
            #expect(truth == haar.dir.appendingPathComponent("export-coco_ground_truth.json").path)
            dataset = "coco:" + truth
        } else {
            #expect(written["ground_truth"] is NSNull)
        }
        let r = try TestSupport.framelab(["eval", "--dataset", dataset, "--predictions", out + ":saved", "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "no warnings expected: \(r.stderr)")
        #expect(try Self.rows(r.stdout)["predictions:saved"] == haar.scores)
        let row = try #require(try Self.rawRows(r.stdout).first)
        for key in ["p50_ms", "p95_ms", "images_per_second"] { #expect(row[key] is NSNull, "\(key) should be null") }
    }

    @Test func mixedRunRecordsPredictionsLikeADetectorWithoutTimings() throws {
        let haar = try Self.haar.get()
        let dir = try TestSupport.makeTemporaryDirectory()
        let list = dir.appendingPathComponent("haar.txt").path
        #expect(try TestSupport.framelab(["export", haar.file, "--format", "fddb", "--out", list]).status == 0)
        let file = dir.appendingPathComponent("mixed.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "opencv-haar", "--predictions", list,
                                          "--out", file, "--run-id", "mixed", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        let row = try #require(lines.first { $0.hasPrefix("predictions:haar ") })
        #expect(row.contains("—") && !row.contains("0.00 "), "\(row)")
        let haarRow = try #require(lines.first { $0.hasPrefix("opencv-haar ") })
        // Same AP, precision, recall, F1 columns as the detector that made them.
        #expect(haarRow.split(separator: " ").dropFirst().prefix(4) == row.split(separator: " ").dropFirst().prefix(4))

        let check = try TestSupport.python("""
            import sys, json, h5py, numpy as np
            run = h5py.File(sys.argv[1], "r")["runs"]["mixed"]
            el = run["elements"][:]
            t = run["timings"][:]
            fm = run["frame_matches"][:]
            m = run["detector_metrics"][:]
            d = run["detections"][:]
            print(json.dumps({
              "stages": [s if isinstance(s, str) else s.decode() for s in run.attrs["stage_names"]],
              "kinds": [k.decode() for k in el["kind"]], "elements": [e.decode() for e in el["element"]],
              "params": el["params"][1].decode(), "origin": el["origin"][1].decode(),
              "model_path": el["model_path"][1].decode(), "sha": el["model_sha256"][1].decode(),
              "timed_stages": sorted(set(int(s) for s in t["stage"])),
              "prediction_durations": sorted(set(int(x) for x in fm["duration_ns"][fm["detector"] == 1])),
              "p50": [int(x) for x in m["p50_ns"]], "p95": [int(x) for x in m["p95_ns"]],
              "detections": [int((d["detector"] == k).sum()) for k in (0, 1)],
              "same_boxes": bool(np.array_equal(d[d["detector"] == 0][["frame", "x", "y", "width", "height", "score", "outcome"]],
                                                d[d["detector"] == 1][["frame", "x", "y", "width", "height", "score", "outcome"]])),
            }))
            """, arguments: [file])
        #expect(check.status == 0, "\(check.stderr)")
        let h5 = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        #expect(h5["stages"] as? [String] == ["opencv-haar", "predictions:haar"])
        #expect(h5["kinds"] as? [String] == ["detector", "predictions"])
        #expect(h5["elements"] as? [String] == ["opencv-haar", "predictions"])
        #expect(h5["params"] as? String == "format=fddb,name=haar,path=\(list)")
        #expect(h5["origin"] as? String == "file" && h5["model_path"] as? String == list)
        #expect(h5["sha"] as? String == SHA256.file(list))
        #expect(h5["timed_stages"] as? [Int] == [0], "saved predictions have no stage timings")
        #expect(h5["prediction_durations"] as? [Int] == [0])
        let p50 = try #require(h5["p50"] as? [Int]), p95 = try #require(h5["p95"] as? [Int])
        #expect(p50[0] > 0 && p95[0] > 0 && p50[1] == -1 && p95[1] == -1)
        let counts = try #require(h5["detections"] as? [Int])
        #expect(counts[0] == counts[1] && counts[0] > 0 && h5["same_boxes"] as? Bool == true)

        let report = try TestSupport.framelab(["report", file, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        let runs = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])
        let detectors = try #require(runs.first?["detectors"] as? [[String: Any]])
        #expect(detectors.map { $0["name"] as? String } == ["opencv-haar", "predictions:haar"])
        #expect(detectors[0]["p50_ms"] as? Double ?? 0 > 0)
        #expect(detectors[1]["p50_ms"] is NSNull && detectors[1]["p95_ms"] is NSNull)
        #expect(detectors[0]["ap"] as? Double == detectors[1]["ap"] as? Double)
        let text = try TestSupport.framelab(["report", file])
        let predictionLines = text.stdout.split(separator: "\n").filter { $0.contains("predictions:haar") }
        #expect(predictionLines.count == 2 && predictionLines.allSatisfy { $0.contains("—") }, "\(text.stdout)")
    }

    @Test func cocoGroundTruthAndResultsRoundTrip() throws {
        let haar = try Self.haar.get()
        let dir = try TestSupport.makeTemporaryDirectory()
        let results = dir.appendingPathComponent("results.json").path
        #expect(try TestSupport.framelab(["export", haar.file, "--format", "coco", "--out", results]).status == 0)
        let truth = dir.appendingPathComponent("results_ground_truth.json").path
        // Evaluated against COCO ground truth, recorded, and exported again: the dataset's ids come back.
        let file = dir.appendingPathComponent("coco.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", "coco:" + truth, "--predictions", results, "--out", file,
                                          "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.rows(r.stdout)["predictions:results"] == haar.scores)
        let again = dir.appendingPathComponent("again.json").path
        let e = try TestSupport.framelab(["export", file, "--format", "coco", "--out", again, "--json"])
        #expect(e.status == 0, "\(e.stderr)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(e.stdout.utf8)) as? [String: Any])
        #expect(written["ground_truth"] is NSNull, "a coco: dataset has ids: no ground truth written")
        /// Each result as "image_id category_id [bbox] score".
        func parsed(_ path: String) throws -> [String] {
            let list = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
            return list.map { r in
                "\(r["image_id"] as? Int ?? -1) \(r["category_id"] as? Int ?? -1) \((r["bbox"] as? [Double]) ?? []) \(r["score"] as? Double ?? .nan)"
            }
        }
        let original = try parsed(results)
        #expect(original.count == haar.scores.truePositives + haar.scores.falsePositives && !original.contains { $0.contains("-1") })
        #expect(try parsed(again) == original)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("again_ground_truth.json").path))
        // WIDER names against the COCO file names match too.
        let wider = dir.appendingPathComponent("wider").path
        #expect(try TestSupport.framelab(["export", file, "--format", "wider", "--out", wider]).status == 0)
        let w = try TestSupport.framelab(["eval", "--dataset", "coco:" + truth, "--predictions", wider, "--json", "--quiet"])
        #expect(w.status == 0 && w.stderr.isEmpty, "\(w.stderr)")
        #expect(try Self.rows(w.stdout)["predictions:wider"] == haar.scores)
    }

    /// Prediction sets need no images: none is decoded when they are all there is.
    @Test func predictionsAloneDecodeNoImage() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let truth = dir.appendingPathComponent("gt.json").path
        try """
            {"images": [{"id": 1, "file_name": "missing/one.png"}, {"id": 2, "file_name": "missing/two.png"}],
             "annotations": [{"image_id": 1, "bbox": [10, 10, 40, 40]}, {"image_id": 2, "bbox": [0, 0, 20, 20]},
                             {"image_id": 2, "bbox": [50, 50, 20, 20], "iscrowd": 1}]}
            """.write(toFile: truth, atomically: true, encoding: .utf8)
        let folder = dir.appendingPathComponent("subm")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("missing"), withIntermediateDirectories: true)
        try "one\r\n2\r\n10 10 40 40 0.9\r\n200 200 10 10 0.2\r\n".write(to: folder.appendingPathComponent("missing/one.txt"),
                                                                      atomically: true, encoding: .utf8)
        try "x\n1\n50 50 20 20 0.5\n".write(to: folder.appendingPathComponent("missing/two.txt"), atomically: true, encoding: .utf8)
        try "x\n0\n".write(to: folder.appendingPathComponent("stray.txt"), atomically: true, encoding: .utf8)
        let r = try TestSupport.framelab(["eval", "--dataset", "coco:" + truth, "--predictions", folder.path, "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try #require(try Self.rows(r.stdout)["predictions:subm"])
        // one.png: a hit and a false positive; two.png: a miss, and a box on the crowd (ignored).
        #expect(s.images == 2 && s.faces == 2 && s.truePositives == 1 && s.falsePositives == 1)
        #expect(s.recall == 0.5 && s.precision == 0.5)
        let warnings = r.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].contains("stray.txt") && warnings[0].contains("not in the dataset"), "\(r.stderr)")
        // A detector would have to decode them: both fail.
        let d = try TestSupport.framelab(["eval", "--dataset", "coco:" + truth, "--detector", "cascade", "--json", "--quiet"])
        #expect(try Self.rawRows(d.stdout).first?["failed"] as? Int == 2)
    }

    @Test func malformedCOCOJSONIsOneLineAndKeepsTheRecordedFile() throws {
        let haar = try Self.haar.get()
        let dir = try TestSupport.makeTemporaryDirectory()
        let file = dir.appendingPathComponent("kept.h5").path
        try FileManager.default.copyItem(atPath: haar.file, toPath: file)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let bad = dir.appendingPathComponent("bad.json").path
        try "[{\"image_id\": 1, \"bbox\": [1, 2, 3, 4], \"score\": 0.5},\n {\"image_id\": 2, \"bbox\": [1, 2, 3, 4], \"score\": }]"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let truth = dir.appendingPathComponent("gt.json").path
        try "{\"images\": [{\"id\": 1, \"file_name\": \"a.png\"}, {\"id\": 2, \"file_name\": \"b.png\"}]}"
            .write(toFile: truth, atomically: true, encoding: .utf8)
        for arguments in [["--dataset", "coco:" + truth, "--predictions", bad],
                          ["--dataset", "coco:" + bad, "--predictions", bad],
                          ["--dataset", "coco:" + truth, "--predictions", bad, "--detector", "opencv-haar"]] {
            let r = try TestSupport.framelab(["eval"] + arguments + ["--out", file, "--quiet"])
            #expect(r.status != 0 && !r.signalled)
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(bad) && lines[0].contains("line 2 column"), "\(r.stderr)")
        }
        // Results by image_id need a coco: dataset.
        let csv = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--predictions", truth, "--out", file])
        #expect(csv.status != 0 && csv.stderr.split(separator: "\n").count == 1 && csv.stderr.contains("coco: dataset"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "nothing recorded may change")
        let report = try TestSupport.framelab(["report", file, "--json"])
        #expect(report.status == 0 && report.stdout.contains("\"haar\""))
    }

    @Test func severalDetectorsExportOneEntryEach() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let list = dir.appendingPathComponent("list.txt").path
        try "images/astronaut\n1\n180 70 90 100 0.9\n".write(toFile: list, atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("two.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--predictions", list + ":a b",
                                          "--predictions", "fddb:" + list + ":c", "--out", file, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("exported").path
        let e = try TestSupport.framelab(["export", file, "--format", "fddb", "--out", out])
        #expect(e.status == 0, "\(e.stderr)")
        for name in ["predictions_a_b.txt", "predictions_c.txt"] {
            let text = try String(contentsOfFile: (out as NSString).appendingPathComponent(name), encoding: .utf8)
            #expect(text.hasPrefix("images/astronaut\n1\n180.0 70.0 90.0 100.0 0.9\n"), "\(name): \(text)")
        }
        let one = dir.appendingPathComponent("one").path
        let w = try TestSupport.framelab(["export", file, "--format", "wider", "--detector", "predictions:c", "--out", one])
        #expect(w.status == 0, "\(w.stderr)")
        let astronaut = try String(contentsOfFile: one + "/images/astronaut.txt", encoding: .utf8)
        #expect(astronaut == "astronaut\n1\n180.0 70.0 90.0 100.0 0.9\n")
        #expect(FileManager.default.fileExists(atPath: one + "/images/t1.txt"), "every evaluated image gets a file")
        let unknown = try TestSupport.framelab(["export", file, "--format", "wider", "--detector", "nope", "--out", one])
        #expect(unknown.status != 0 && unknown.stderr.contains("predictions:a b, predictions:c"))
    }

    /// Shards of a predictions-only eval merge into the single run's scores (no timings in either).
    @Test func shardedPredictionsMergeToTheSingleRunsScores() throws {
        let haar = try Self.haar.get()
        let dir = try TestSupport.makeTemporaryDirectory()
        let list = dir.appendingPathComponent("haar.txt").path
        #expect(try TestSupport.framelab(["export", haar.file, "--format", "fddb", "--out", list]).status == 0)
        var shards: [String] = []
        for k in 0..<2 {
            let shard = dir.appendingPathComponent("s\(k).h5").path
            let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--predictions", list, "--shard", "\(k)/2",
                                              "--out", shard, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("not in the dataset"), "another shard's images are not unknown: \(r.stderr)")
            shards.append(shard)
        }
        let merged = try TestSupport.framelab(["merge", dir.appendingPathComponent("all.h5").path] + shards + ["--json"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.rows(merged.stdout)["predictions:haar"] == haar.scores)
        #expect(try Self.rawRows(merged.stdout).first?["p50_ms"] is NSNull)
    }

    @Test func helpAndBadArgumentsAreAccurate() throws {
        let help = try TestSupport.framelab(["export", "--help"])
        for text in ["--format", "--out", "--run", "--detector", "--dataset", "--ground-truth", "--json", "wider", "fddb", "coco",
                     "_ground_truth.json"] {
            #expect(help.stdout.contains(text), "export --help lacks \(text)")
        }
        let eval = try TestSupport.framelab(["eval", "--help"])
        for text in ["--predictions", "coco:FILE.json", "predictions:NAME", "wider:FOLDER", "fddb:FILE"] {
            #expect(eval.stdout.contains(text), "eval --help lacks \(text)")
        }
        #expect(try TestSupport.framelab(["--help"]).stdout.contains("export"))
        let format = try TestSupport.framelab(["export", "x.h5", "--format", "voc", "--out", "y"])
        #expect(format.status == 64 && format.stderr.contains("--format"))
        let missing = try TestSupport.framelab(["export", "/no/such.h5", "--format", "fddb", "--out", "y"])
        #expect(missing.status != 0 && missing.stderr.contains("/no/such.h5"))
        let neither = try TestSupport.framelab(["eval", "--dataset", Self.sample])
        #expect(neither.status == 64 && neither.stderr.contains("--predictions"))
        let haar = try Self.haar.get()
        let run = try TestSupport.framelab(["export", haar.file, "--run", "nope", "--format", "fddb", "--out", "y"])
        #expect(run.status != 0 && run.stderr.contains("haar"))
    }
}
