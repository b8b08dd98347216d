import Foundation
import FramelabTestSupport
import Testing

/// `framelab report` shows each run as its kind: stages with an end-to-end row and the
/// budgets it fits, an eval's detector scores, a bench run's cases.
@Suite struct ReportKindsTests {
    static let sample = "csv:" + TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path

    private func runs(_ path: String) throws -> [[String: Any]] {
        let r = try TestSupport.framelab(["report", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return try #require(json["runs"] as? [[String: Any]])
    }

    @Test func eachKindShowsWhatAnswersItsQuestion() throws {
        let out = try TestSupport.makeTemporaryDirectory().appendingPathComponent("kinds.h5").path
        #expect(try TestSupport.framelab(["run", "--source", "synthetic:160x120@200", "--frames", "20", "--filter", "sepia",
                                          "--policy", "keep-all", "--out", out, "--run-id", "chain", "--quiet"]).status == 0)
        let eval = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "opencv-haar", "--limit", "3",
                                             "--out", out, "--run-id", "eval", "--json", "--quiet"])
        #expect(eval.status == 0, "\(eval.stderr)")
        #expect(try TestSupport.framelab(["bench", "filters", "--filter", "gray", "--size", "64x48", "--chain-size", "64x48",
                                          "--repeats", "2", "--warmup", "1", "--paths", "simd", "--out", out, "--quiet"]).status == 0)

        let runs = try runs(out)
        #expect(runs.compactMap { $0["kind"] as? String } == ["run", "eval", "bench filters"])
        let chain = runs[0]
        let endToEnd = try #require(chain["end_to_end"] as? [String: Any])
        #expect(endToEnd["frames"] as? Int == 20)
        // 160x120 sepia takes well under a millisecond: every budget fits.
        #expect(chain["fits_fps"] as? [Int] == [24, 30, 60])
        #expect((chain["fps"] as? Double ?? 0) > 0 && (chain["fps"] as? Double ?? 0) < 1000)

        let evalJSON = try #require(try JSONSerialization.jsonObject(with: Data(eval.stdout.utf8)) as? [String: Any])
        let printedAP = try #require((evalJSON["detectors"] as? [[String: Any]])?.first?["ap"] as? Double)
        let detectors = try #require(runs[1]["detectors"] as? [[String: Any]])
        #expect(detectors.count == 1 && detectors[0]["name"] as? String == "opencv-haar")
        #expect(detectors[0]["ap"] as? Double == printedAP && detectors[0]["images"] as? Int == 3)

        let cases = try #require(runs[2]["bench_cases"] as? [[String: Any]])
        #expect(cases.contains { $0["filter"] as? String == "gray" && $0["path"] as? String == "simd" && $0["runs"] as? Int == 2 })
        #expect(cases.contains { $0["filter"] as? String == "memcpy" })

        let text = try TestSupport.framelab(["report", out])
        #expect(text.stdout.contains("end-to-end p95 ") && text.stdout.contains("fits 24, 30, 60 fps"), "\(text.stdout)")
        #expect(text.stdout.contains("detector") && text.stdout.contains("      AP  precision"), "\(text.stdout)")
        #expect(text.stdout.contains("min ms  median ms"), "\(text.stdout)")
    }

    @Test func aVersion1EvalRunShowsItsScores() throws {
        let schema1 = TestSupport.packageRoot.appendingPathComponent("Notebooks/tests/fixtures/schema1.h5").path
        let eval = try #require(try runs(schema1).first { $0["id"] as? String == "eval" })
        let detectors = try #require(eval["detectors"] as? [[String: Any]])
        #expect(detectors.compactMap { $0["name"] as? String } == ["opencv-haar", "opencv-lbp"])
        #expect(detectors.allSatisfy { ($0["ap"] as? Double ?? -1) >= 0 && $0["images"] as? Int == 4 })
    }
}
