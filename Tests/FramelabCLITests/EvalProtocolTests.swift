import FramelabTestSupport
import Foundation
import Testing

/// `framelab eval --protocol` through the real binary: WIDER scores printed, in --json,
/// recorded, shown by `report`, recomputed by `merge` over the whole set; bad protocols.
@Suite struct EvalProtocolTests {
    static let detectors = ["--detector", "cascade:accuracy=low", "--detector", "opencv-haar:scale=1.3"]

    /// A WIDER kit-format set of `images` copies of the sample astronaut (its face kept by
    /// every subset, random extra faces and subsets), written by Notebooks/tests/wider_kit.py.
    func kit(images: Int, seed: Int) throws -> (dir: URL, dataset: String) {
        let dir = try TestSupport.makeTemporaryDirectory("wider-protocol")
        let script = TestSupport.packageRoot.appendingPathComponent("Notebooks/tests/wider_kit.py").path
        let photo = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let r = try TestSupport.run(TestSupport.python, [script, "synth", dir.path, "--images", "\(images)", "--seed", "\(seed)",
                                                         "--photo", photo, "--face", "180,70,90,100"])
        #expect(r.status == 0, "wider_kit.py: \(r.stderr)")
        return (dir, "wider:" + dir.appendingPathComponent("ground_truth").path)
    }

    func json(_ text: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["detectors"] as? [[String: Any]])
    }

    func widerMetrics(_ detector: [String: Any]) -> [String: Double] {
        ((detector["protocols"] as? [String: Any])?["wider"] as? [String: Any])?["metrics"] as? [String: Double] ?? [:]
    }

    @Test func widerScoresArePrintedRecordedAndReported() throws {
        let (dir, dataset) = try kit(images: 6, seed: 21)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run.h5").path
        let table = try TestSupport.framelab(["eval", "--dataset", dataset] + Self.detectors
                                             + ["--protocol", "framelab,wider", "--out", out, "--run-id", "w", "--quiet"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("protocol wider:") && table.stdout.contains("ap_easy") && table.stdout.contains("ap_hard"),
                "\(table.stdout)")
        let printed = try json(try TestSupport.framelab(["eval", "--dataset", dataset] + Self.detectors
                                                        + ["--protocol", "wider", "--json", "--quiet"]).stdout)
        let metrics = printed.map(widerMetrics)
        #expect(metrics.count == 2 && metrics.allSatisfy { Set($0.keys) == ["ap_easy", "ap_medium", "ap_hard"] })
        // The astronaut's face is in every image and every subset: both detectors find some.
        #expect(metrics.allSatisfy { ($0["ap_easy"] ?? 0) > 0.3 }, "\(metrics)")
        let curves = ((printed[0]["protocols"] as? [String: Any])?["wider"] as? [String: Any])?["curves"] as? [String: [[Any]]]
        #expect(curves?["wider_easy"]?.count == 1000)

        // Recorded: the same numbers in protocol_scores, the protocols attribute, the subsets.
        let recorded = try TestSupport.python("""
            import sys, json; sys.path.insert(0, sys.argv[1]); import framelab_h5 as fl
            s = fl.protocol_scores(sys.argv[2], "w")
            print(json.dumps({"scores": [[r.detector_name, r.metric, r.value] for r in s.itertuples()],
                              "protocols": list(fl.attributes(sys.argv[2], "w")["protocols"]),
                              "subsets": len(fl.wider_subsets(sys.argv[2], "w"))}))
            """, arguments: [TestSupport.packageRoot.appendingPathComponent("Notebooks").path, out])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(recorded.stdout.utf8)) as? [String: Any])
        #expect(file["protocols"] as? [String] == ["framelab", "wider"])
        #expect((file["subsets"] as? Int ?? 0) > 6)
        let rows = try #require(file["scores"] as? [[Any]])
        #expect(rows.count == 6)
        for row in rows {
            let k = row[0] as? String == "cascade:accuracy=low" ? 0 : 1
            #expect(metrics[k][row[1] as? String ?? ""] == row[2] as? Double, "\(row) vs \(metrics[k])")
        }
        let report = try TestSupport.framelab(["report", out])
        #expect(report.status == 0 && report.stdout.contains("[wider]  ap_easy"), "\(report.stdout)")
        let reportJSON = try TestSupport.framelab(["report", out, "--json"])
        #expect(reportJSON.stdout.contains("\"protocol_scores\"") && reportJSON.stdout.contains("\"ap_medium\""))
    }

    /// WIDER normalises scores over the whole set: a merged run's WIDER AP must be the
    /// unsharded run's, not an average of the shards'.
    @Test func mergeRescoresWiderOverTheWholeSet() throws {
        let (dir, dataset) = try kit(images: 8, seed: 22)
        defer { try? FileManager.default.removeItem(at: dir) }
        let single = dir.appendingPathComponent("single.h5").path
        let shards = (0..<2).map { dir.appendingPathComponent("shard-\($0).h5").path }
        for (extra, out) in [([String](), single)] + shards.enumerated().map { (["--shard", "\($0)/2"], $1) } {
            let r = try TestSupport.framelab(["eval", "--dataset", dataset] + Self.detectors
                                             + ["--protocol", "wider", "--out", out, "--run-id", "r", "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let merged = dir.appendingPathComponent("merged.h5").path
        let m = try TestSupport.framelab(["merge", merged, shards[1], shards[0], "--run-id", "merged", "--json"])
        #expect(m.status == 0, "\(m.stderr)")
        // Every table equal, protocol_scores, wider_subsets and the WIDER curves included.
        #expect(try EvalRunComparison.differences(single, "r", merged, "merged") == [])
        let again = try TestSupport.framelab(["eval", "--dataset", dataset] + Self.detectors + ["--protocol", "wider", "--json", "--quiet"])
        #expect(try json(m.stdout).map(widerMetrics) == json(again.stdout).map(widerMetrics))
        #expect(try json(m.stdout).map(widerMetrics).allSatisfy { $0.count == 3 })
    }

    @Test func withoutSubsetsWiderScoresTheAllSettingAndSaysSo() throws {
        let csv = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
        let r = try TestSupport.framelab(["eval", "--dataset", "csv:" + csv, "--detector", "cascade:accuracy=low",
                                          "--protocol", "wider", "--limit", "3", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("ap_all") && r.stdout.contains("note: the ground truth has no easy/medium/hard"), "\(r.stdout)")
    }

    @Test func unknownProtocolsAreOneLineErrors() throws {
        let csv = "csv:" + TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
        let bogus = try TestSupport.framelab(["eval", "--dataset", csv, "--detector", "opencv-haar", "--protocol", "wider,widerface"])
        #expect(bogus.status != 0 && bogus.stderr.contains("'widerface'") && bogus.stderr.contains("framelab, wider, fddb"),
                "\(bogus.stderr)")
        let help = try TestSupport.framelab(["eval", "--help"])
        #expect(help.stdout.contains("--protocol") && help.stdout.contains("wider —") && help.stdout.contains("easy, medium and hard"))
    }

    /// FDDB's program on the sample: its two ROC curves and TPR at 1000 false positives,
    /// printed, in --json, recorded, and consistent with each other; a missing image's face
    /// is a miss, not left out.
    @Test func fddbScoresTheSampleAndCountsAFailedImageAsMisses() throws {
        let dir = try TestSupport.makeTemporaryDirectory("fddb-protocol")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sample = TestSupport.packageRoot.appendingPathComponent("Datasets/sample")
        let csv = dir.appendingPathComponent("faces.csv")
        // The sample plus one image that does not exist, with one face.
        let rows = try String(contentsOf: sample.appendingPathComponent("faces.csv"), encoding: .utf8)
            .replacingOccurrences(of: "images/", with: sample.appendingPathComponent("images").path + "/")
        try (rows + "/no/such/image.png,10,10,50,50\n").write(to: csv, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("f.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", "csv:" + csv.path, "--detector", "opencv-haar",
                                          "--protocol", "fddb", "--out", out, "--run-id", "f", "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let detector = try #require(try json(r.stdout).first)
        let fddb = try #require((detector["protocols"] as? [String: Any])?["fddb"] as? [String: Any])
        let metrics = try #require(fddb["metrics"] as? [String: Double])
        let discrete = try #require(metrics["tpr_at_1000_fp_discrete"]), continuous = try #require(metrics["tpr_at_1000_fp_continuous"])
        #expect(metrics["faces"] == 11, "10 sample faces and the missing image's one: \(metrics)")
        #expect(discrete > 0.3 && discrete < 1 && continuous > 0 && continuous <= discrete, "\(metrics)")
        let curves = try #require(fddb["curves"] as? [String: [[Double]]])
        let points = try #require(curves["fddb_discrete"])
        // Fewer than 1000 false positives on 8 images: the TPR at 1000 is the curve's last point.
        #expect(points.last?[1] ?? 1e9 < 1000 && points.last?[2] == discrete, "\(points)")
        #expect((fddb["notes"] as? [String] ?? []).contains { $0.contains("1 image(s) failed") })
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            s = f["runs"]["f"]["protocol_scores"][:]
            rows = {(r["metric"].decode() if isinstance(r["metric"], bytes) else r["metric"]): float(r["value"]) for r in s}
            print(round(rows["tpr_at_1000_fp_discrete"], 9), round(rows["tpr_at_1000_fp_continuous"], 9))
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout == "\(round(discrete * 1e9) / 1e9) \(round(continuous * 1e9) / 1e9)\n", "\(py.stdout)")
        let table = try TestSupport.framelab(["eval", "--dataset", "csv:" + csv.path, "--detector", "opencv-haar",
                                              "--protocol", "framelab,fddb", "--quiet"])
        #expect(table.stdout.contains("protocol fddb:") && table.stdout.contains("tpr_at_1000_fp_discrete"), "\(table.stdout)")
    }
}
