import FramelabCore
import FramelabTestSupport
import Foundation
import Testing

/// `framelab eval`, `detectors`, `dataset` and `bench detectors` through the real binary.
@Suite struct EvalCommandTests {
    static let sample = "csv:" + TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path

    @Test func comparesThreeDetectorsOnTheSampleInJSON() throws {
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "opencv-haar",
                                          "--detector", "opencv-lbp", "--detector", "cascade", "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["detectors"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["opencv-haar", "opencv-lbp", "cascade"])
        for row in rows {
            for key in ["ap", "precision", "recall", "f1", "p50_ms", "p95_ms"] {
                let v = try #require(row[key] as? Double, "\(key)")
                #expect(v >= 0)
            }
            #expect(row["images"] as? Int == json["images"] as? Int)
            #expect(row["faces"] as? Int == 10)
        }
        // The same cascade and parameters: the same accuracy.
        #expect(rows[0]["recall"] as? Double == rows[2]["recall"] as? Double)
        #expect((rows[0]["recall"] as? Double ?? 0) >= 0.5)
    }

    @Test func tablePrintsOneRowPerDetector() throws {
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "opencv-haar:accuracy=low",
                                          "--detector", "cascade", "--limit", "3", "--threads", "2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 images"))
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("opencv-haar:accuracy=low") })
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("cascade ") })
        #expect(r.stdout.contains("p50 ms"))
    }

    @Test func helpDescribesEveryOption() throws {
        let r = try TestSupport.framelab(["eval", "--help"])
        for option in ["--dataset", "--detector", "--threads", "--limit", "--out", "--json", "wider:", "fddb:", "dlib:", "csv:",
                       "opencv-haar", "opencv-lbp", "cascade", "opencv-yunet"] {
            #expect(r.stdout.contains(option), "eval --help lacks \(option)")
        }
        let d = try TestSupport.framelab(["detectors"])
        #expect(d.stdout.contains("accuracy") && d.stdout.contains("min-size") && d.stdout.contains("landmarks"))
        let b = try TestSupport.framelab(["bench", "detectors", "--help"])
        #expect(b.stdout.contains("--repeats") && b.stdout.contains("IoU >= 0.8") && b.stdout.contains("1280x720"))
    }

    @Test func badInputsAreOneLineErrorsNamingTheInput() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let csv = dir.appendingPathComponent("bad.csv").path
        try "image,x,y,width,height\na.png,1,2,3,4\nb.png,1,2,three,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let bad = try TestSupport.framelab(["eval", "--dataset", "csv:" + csv, "--detector", "opencv-haar"])
        #expect(bad.status != 0 && bad.stderr.contains(csv) && bad.stderr.contains("line 3"))
        #expect(bad.stderr.split(separator: "\n").count == 1)

        let xml = dir.appendingPathComponent("not-a-cascade.xml").path
        try "<?xml version=\"1.0\"?><dataset><images/></dataset>".write(toFile: xml, atomically: true, encoding: .utf8)
        for detector in ["cascade", "opencv-haar"] {
            let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "\(detector):cascade=\(xml)"])
            #expect(r.status != 0 && r.stderr.contains(xml), "\(detector): \(r.stderr)")
        }
        let unknown = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "haar9000"])
        #expect(unknown.status != 0 && unknown.stderr.contains("haar9000"))
        let yunet = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "opencv-yunet"])
        #expect(yunet.status != 0 && yunet.stderr.contains("model=PATH"))
        let skipped = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--limit", "1", "--detector", "opencv-yunet",
                                                "--detector", "opencv-lbp", "--quiet"])
        #expect(skipped.status == 0 && skipped.stderr.contains("skipping opencv-yunet"))
        #expect(!skipped.stdout.contains("opencv-yunet") && skipped.stdout.contains("opencv-lbp"))
        let missing = try TestSupport.framelab(["eval", "--dataset", "wider:/no/such/dir", "--detector", "cascade"])
        #expect(missing.status != 0 && missing.stderr.contains("/no/such/dir"))
    }

    @Test func missingImagesAreFailedFramesAndTheEvaluationGoesOn() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let astronaut = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let csv = dir.appendingPathComponent("faces.csv").path
        try "image,x,y,width,height\ngone.png,1,1,20,20\n\(astronaut),180,70,90,100\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let r = try TestSupport.framelab(["eval", "--dataset", "csv:" + csv, "--detector", "opencv-haar", "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("gone.png"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let row = try #require((json["detectors"] as? [[String: Any]])?.first)
        // The missing image's face is a miss: recall 1 of 2, not 1 of 1.
        #expect(row["failed"] as? Int == 1 && row["images"] as? Int == 1 && row["faces"] as? Int == 2 && row["recall"] as? Double == 0.5, "\(row)")
    }

    @Test func composeWritesADatasetEvalReads() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let images = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path
        let c = try TestSupport.framelab(["dataset", "compose", "--out", dir.path, "--count", "3", "--seed", "5",
                                          "--sample-images", images])
        #expect(c.status == 0, "\(c.stderr)")
        let info = try TestSupport.framelab(["dataset", "info", "csv:" + dir.appendingPathComponent("faces.csv").path])
        #expect(info.stdout.contains("3 images") && info.stdout.contains("0 image files missing"))
    }

    @Test func recordsDetectionsMatchesAndTimingsReadableByH5py() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("eval.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "opencv-haar", "--detector", "cascade",
                                          "--out", out, "--run-id", "e1", "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let images = try #require(json["images"] as? Int)
        let script = """
            import sys, h5py, numpy as np
            f = h5py.File(sys.argv[1], "r")
            run = f["runs/e1"]
            det, gt, fm, cur, met = (run[n] for n in ["detections", "ground_truth", "frame_matches", "curves", "detector_metrics"])
            outcomes = h5py.check_enum_dtype(det.dtype["outcome"])
            tp = int((det["outcome"] == outcomes["true_positive"]).sum())
            print(len(run["frames"]), len(run["timings"]), gt.shape[0], fm.shape[0], tp,
                  int(fm["true_positives"].sum()), run.attrs["status"], cur.shape[0] > 0, met.shape[0])
            """
        let p = try TestSupport.python(script, arguments: [out])
        #expect(p.status == 0, "\(p.stderr)")
        let fields = p.stdout.split(separator: " ").map(String.init)
        #expect(fields.count == 9, "\(p.stdout)")
        guard fields.count == 9 else { return }
        #expect(Int(fields[0]) == images)
        #expect(Int(fields[1]) == 2 * images)         // one timing per image and detector
        #expect(Int(fields[2]) == 10)                 // the 10 faces of faces.csv
        #expect(Int(fields[3]) == 2 * images)
        #expect(fields[4] == fields[5] && Int(fields[4])! > 0)
        #expect(fields[6] == "completed" && fields[7] == "True" && fields[8].hasPrefix("2"))
    }
}
