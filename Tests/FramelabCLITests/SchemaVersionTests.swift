import Foundation
import FramelabTestSupport
import Testing

/// Files written before schema version 2 stay readable; they are never written to.
@Suite struct SchemaVersionTests {
    /// Made by Framelab's last version-1 writer (Notebooks/tests/fixtures/make_schema1.sh).
    static let schema1 = TestSupport.packageRoot.appendingPathComponent("Notebooks/tests/fixtures/schema1.h5").path

    @Test func reportReadsAVersion1File() throws {
        let r = try TestSupport.framelab(["report", Self.schema1, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.compactMap { $0["id"] as? String }.prefix(3) == ["chain", "dropping", "folder"])
        let chain = try #require(runs.first)
        let stages = try #require(chain["stages"] as? [[String: Any]])
        #expect(stages.compactMap { $0["name"] as? String } == ["sepia", "hue"])
        #expect(stages.allSatisfy { $0["frames"] as? Int == 20 })
        #expect(chain["processed"] as? Int == 20 && chain["dropped"] as? Int == 0)
        let eval = try #require(runs.first { $0["id"] as? String == "eval" })
        #expect(eval["processed"] as? Int == 4)
    }

    @Test func recordingIntoAVersion1FileIsRefusedAndLeavesItUntouched() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let copy = dir.appendingPathComponent("old.h5").path
        try FileManager.default.copyItem(atPath: Self.schema1, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let r = try TestSupport.framelab(["run", "--source", "synthetic:32x24@30", "--frames", "3", "--filter", "gray",
                                          "--out", copy, "--quiet"])
        #expect(r.status != 0)
        #expect(r.stderr.contains(copy) && r.stderr.contains("version-1"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }
}
