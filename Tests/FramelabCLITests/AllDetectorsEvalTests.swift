import FramelabTestSupport
import Foundation
import Testing

/// `eval --all-detectors` and `--roc-dir` through the real binary.
@Suite struct AllDetectorsEvalTests {
    @Test func everyAvailableDetectorRunsAndTheFDDBFilesAreWritten() throws {
        let dir = try TestSupport.makeTemporaryDirectory("all-detectors")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rocs = dir.appendingPathComponent("rocs")
        let r = try TestSupport.framelab(["eval", "--dataset", EvalCommandTests.sample, "--limit", "1", "--all-detectors",
                                          "--detector", "cascade:accuracy=low", "--protocol", "fddb",
                                          "--roc-dir", rocs.path, "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let names = try #require((object["detectors"] as? [[String: Any]])?.compactMap { $0["name"] as? String })
        // The one given first, then every available built-in (cascade itself not twice); YuNet has no model.
        #expect(names.first == "cascade:accuracy=low" && !names.contains("cascade"), "\(names)")
        for builtIn in ["opencv-haar", "opencv-lbp", "opencv-ssd", "centerface", "mtcnn"] {
            #expect(names.contains(builtIn), "\(builtIn) missing from \(names)")
        }
        #expect(!names.contains("opencv-yunet") && r.stderr.contains("--all-detectors skips opencv-yunet"))
        // FDDB's two files per detector, lowest threshold first: "TPR FP threshold" / "TPR FP".
        let disc = try String(contentsOf: rocs.appendingPathComponent("centerface/DiscROC.txt"), encoding: .utf8)
        let cont = try String(contentsOf: rocs.appendingPathComponent("centerface/ContROC.txt"), encoding: .utf8)
        let discLines = disc.split(separator: "\n"), contLines = cont.split(separator: "\n")
        #expect(!discLines.isEmpty && discLines.count == contLines.count)
        #expect(discLines.allSatisfy { $0.split(separator: " ").count == 3 } && contLines.allSatisfy { $0.split(separator: " ").count == 2 })
        // The first line (lowest threshold) has found the astronaut: TPR 1 for CenterFace.
        #expect(discLines.first?.hasPrefix("1 ") == true, "\(disc)")
        #expect(FileManager.default.fileExists(atPath: rocs.appendingPathComponent("cascade_accuracy_low/DiscROC.txt").path))

        let bad = try TestSupport.framelab(["eval", "--dataset", EvalCommandTests.sample, "--detector", "cascade",
                                            "--roc-dir", rocs.path])
        #expect(bad.status != 0 && bad.stderr.contains("--roc-dir needs --protocol fddb"))
    }
}
