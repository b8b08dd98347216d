import FramelabCore
import FramelabTestSupport
import Foundation
import Testing

/// `framelab bench detectors --part speed`: every detector asked for, at the three frame
/// sizes, timed on one thread, through the real binary.
@Suite struct BenchDetectorsSpeedTests {
    @Test func timesEachDetectorAtThreeSizesAndListsTheUnavailable() throws {
        let r = try TestSupport.framelab(["bench", "detectors", "--part", "speed", "--detector", "cascade",
                                          "--detector", "opencv-yunet", "--repeats", "2", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["speed"] as? [[String: Any]])
        #expect(rows.map { "\($0["width"] as? Int ?? 0)x\($0["height"] as? Int ?? 0)" } == ["320x240", "640x480", "1280x720"])
        for row in rows {
            let lo = try #require(row["min_ms"] as? Double), mid = try #require(row["median_ms"] as? Double)
            #expect(lo > 0 && lo <= mid)
            // The letterboxed astronaut keeps her face findable at every size.
            #expect((row["faces"] as? Int ?? 0) >= 1, "\(row)")
        }
        // YuNet without a model cannot be made: listed with the reason, the others still timed.
        let unavailable = try #require(json["unavailable"] as? [[String: Any]])
        #expect(unavailable.count == 1 && (unavailable[0]["reason"] as? String ?? "").contains("model=PATH"))
        // Progress goes to standard error, one line per detector and size.
        #expect(r.stderr.contains("[1/6] cascade 320x240") && r.stderr.contains("[3/6] cascade 1280x720"))
    }

    @Test func textShowsTheBudgetLinesAndUnknownDetectorsAreOneLineErrors() throws {
        let r = try TestSupport.framelab(["bench", "detectors", "--part", "speed", "--detector", "opencv-lbp",
                                          "--repeats", "1", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("budget 640x480 at 24 fps (41.7 ms)") && r.stdout.contains("budget 1280x720 at 60 fps (16.7 ms)"))
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("opencv-lbp ") })
        let bad = try TestSupport.framelab(["bench", "detectors", "--part", "speed", "--detector", "nope"])
        #expect(bad.status != 0 && bad.stderr.contains("'nope'"))
    }

    /// The bundled-sample defaults of `bench detectors` and `dataset compose` are found in the
    /// checkout framelab was built in when the working folder is elsewhere.
    @Test func defaultsFindTheBundledSampleFromAnotherFolder() throws {
        let dir = try TestSupport.makeTemporaryDirectory("elsewhere")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bench = try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" bench detectors --part speed --detector cascade "
                                                      + "--repeats 1 --quiet --json", "sh", dir.path, TestSupport.framelabBinary])
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(bench.stdout.contains("\"speed\""))
        let out = dir.appendingPathComponent("composites").path
        let compose = try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" dataset compose --count 2 --out \"$3\"",
                                                        "sh", dir.path, TestSupport.framelabBinary, out])
        #expect(compose.status == 0, "\(compose.stderr)")
    }
}
