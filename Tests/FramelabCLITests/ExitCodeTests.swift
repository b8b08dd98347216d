import Foundation
import FramelabTestSupport
import Testing

/// Exit codes tell the truth: a run a signal stopped and a run whose every frame failed are
/// not successes, and both keep their record.
@Suite struct ExitCodeTests {
    @Test func aRunStoppedBySIGINTExits130AndKeepsItsRecord() throws {
        let out = try TestSupport.makeTemporaryDirectory().appendingPathComponent("stopped.h5").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.framelabBinary)
        process.arguments = ["run", "--source", "synthetic:64x48@50", "--filter", "gray", "--out", out, "--run-id", "s", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Until frames are on disk (the writer flushes every half second), then Ctrl-C.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            if let data = FileManager.default.contents(atPath: out), data.count > 0 { break }
        }
        Thread.sleep(forTimeInterval: 0.7)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let report = try TestSupport.framelab(["report", out, "--json"])
        let run = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["runs"]
                               as? [[String: Any]]).first
        #expect(run?["status"] as? String == "interrupted")
        #expect((run?["processed"] as? Int ?? 0) > 0)
    }

    @Test func aRunWhoseEveryFrameFailedExitsNonZeroAndKeepsItsRecord() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let images = dir.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for name in ["a.png", "b.png", "c.png"] {
            try Data("not an image".utf8).write(to: images.appendingPathComponent(name))
        }
        let out = dir.appendingPathComponent("failed.h5").path
        let r = try TestSupport.framelab(["run", "--source", "images:\(images.path)", "--filter", "gray", "--out", out, "--quiet"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("every one of its 3 frames failed") && r.stderr.contains(out), "\(r.stderr)")
        let report = try TestSupport.framelab(["report", out, "--json"])
        let run = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["runs"]
                               as? [[String: Any]]).first
        #expect(run?["failed"] as? Int == 3)
        #expect((run?["status"] as? String ?? "").hasPrefix("failed: every one of its 3 frames failed"))
    }

    @Test func anEvaluationWhoseEveryImageFailedExitsNonZeroAndKeepsItsRecord() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        for name in ["a.png", "b.png"] { try Data("not an image".utf8).write(to: dir.appendingPathComponent(name)) }
        try "image,x,y,width,height\na.png,1,1,10,10\nb.png,2,2,10,10\n"
            .write(to: dir.appendingPathComponent("faces.csv"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("e.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", "csv:" + dir.appendingPathComponent("faces.csv").path,
                                          "--detector", "cascade", "--out", out, "--quiet"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("every one of its 2 images failed") && r.stderr.contains(out), "\(r.stderr)")
        let report = try TestSupport.framelab(["report", out, "--json"])
        #expect(report.status == 0 && report.stdout.contains("\"kind\" : \"eval\""), "\(report.stderr)")
    }
}
