import FramelabTestSupport
import Foundation
import Testing

/// `framelab bench pipeline` through the real binary (tiny sizes: what is checked is that
/// every mode ran and the report holds together, not the speed).
@Suite struct BenchPipelineCommandTests {
    @Test func jsonHasEveryModeEveryGoalAndTheDetectorScaling() throws {
        let images = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path
        let r = try TestSupport.framelab(["bench", "pipeline", "--frames", "20", "--repeats", "1", "--stage-ms", "0.5",
                                          "--composites", "2", "--sample-images", images, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["throughput"] as? [[String: Any]])
        #expect(rows.map { $0["mode"] as? String } == ["serial", "pipelining", "workers-2"])
        for row in rows {
            #expect(row["frames"] as? Int == 20)
            #expect((row["min_ms"] as? Double ?? 0) > 0)
        }
        #expect(rows[0]["speedup"] as? Double == 1)
        let overhead = try #require(json["overhead_us"] as? [[String: Any]])
        #expect(overhead.count == 3 && overhead.allSatisfy { ($0["min"] as? Double ?? 0) > 0 })
        let goals = try #require(json["goals"] as? [[String: Any]])
        #expect(goals.count == 3 && goals.allSatisfy { $0["met"] is Bool })
        let eval = try #require(json["eval_workers"] as? [String: Any])
        #expect(eval["images"] as? Int == 2)
    }

    @Test func textNamesTheGoalsAndBadFlagsAreOneLine() throws {
        let r = try TestSupport.framelab(["bench", "pipeline", "--frames", "10", "--repeats", "1", "--stage-ms", "0.2",
                                          "--composites", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("== speed goals (2 cores)"))
        #expect(r.stdout.contains("--pipelining >= 1.8x serial"))
        #expect(r.stderr.contains("framelab: part 1:"))
        let bad = try TestSupport.framelab(["bench", "pipeline", "--stage-ms", "1e300"])
        #expect(bad.status == 64 && bad.stderr.contains("--stage-ms must be from 0.1 to 100"))
    }
}
