import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// Every bad input gets one line on standard error naming the input, and a non-zero exit.
@Suite struct BadInputTests {
    func expectOneLineError(_ arguments: [String], mentions: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try TestSupport.framelab(arguments)
        #expect(r.status != 0, "exit status for \(arguments)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(mentions), "'\(r.stderr)' should mention '\(mentions)'", sourceLocation: sourceLocation)
    }

    @Test func missingFiles() throws {
        try expectOneLineError(["run", "--source", "image:/no/such.png"], mentions: "/no/such.png")
        try expectOneLineError(["run", "--source", "video:/no/such.mp4"], mentions: "/no/such.mp4")
        try expectOneLineError(["run", "--source", "images:/no/such/dir"], mentions: "/no/such/dir")
        try expectOneLineError(["report", "/no/such.h5"], mentions: "/no/such.h5")
    }

    @Test func corruptImageAndVideo() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let png = dir.appendingPathComponent("bad.png").path
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: png))
        try expectOneLineError(["run", "--source", "image:\(png)"], mentions: png)
        let mp4 = dir.appendingPathComponent("bad.mp4").path
        try Data(repeating: 7, count: 2000).write(to: URL(fileURLWithPath: mp4))
        try expectOneLineError(["run", "--source", "video:\(mp4)"], mentions: mp4)
    }

    @Test func truncatedVideoKeepsWhatWasRecorded() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let video = dir.appendingPathComponent("long.avi").path
        let writer = try VideoWriter(path: video, fps: 25, width: 160, height: 120)
        for i in 0..<40 {
            let m = Mat(format: .bgra8, width: 160, height: 120)
            for y in 0..<120 { for x in stride(from: 0, to: 160, by: 2) {
                m.setPixel(x: x, y: y, [Double((x * 7 + y * 13 + i) % 256), Double(i * 5), 90, 255])
            } }
            try writer.write(m)
        }
        writer.close()
        let data = try Data(contentsOf: URL(fileURLWithPath: video))
        let cut = dir.appendingPathComponent("cut.avi").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let out = dir.appendingPathComponent("cut.h5").path
        try expectOneLineError(["run", "--source", "video:\(cut)", "--filter", "sepia", "--out", out, "--quiet"],
                               mentions: cut)
        let report = try TestSupport.framelab(["report", out, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as! [String: Any]
        let run = (json["runs"] as! [[String: Any]])[0]
        let frames = (run["stages"] as! [[String: Any]])[0]["frames"] as! Int
        #expect(frames > 0 && frames < 40)
        #expect((run["status"] as! String).hasPrefix("failed: video '\(cut)'"))
    }

    @Test func unknownSchemeFilterAndBadParameters() throws {
        try expectOneLineError(["run", "--source", "webcam:0"], mentions: "unknown scheme 'webcam'")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--filter", "blur"], mentions: "unknown filter 'blur'")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--filter", "sepia:intensity=2"],
                               mentions: "parameter 'intensity' = 2.0 is outside 0…1")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--filter", "hue:angle=wide"],
                               mentions: "parameter 'angle' expects a number, got 'wide'")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--policy", "sometimes"],
                               mentions: "--policy")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "0"], mentions: "--frames")
    }

    @Test func unwritableOutputAndNonHDF5Output() throws {
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--out", "/proc/nope/x.h5"],
                               mentions: "/proc/nope/x.h5")
        let dir = try TestSupport.makeTemporaryDirectory()
        let text = dir.appendingPathComponent("notes.h5").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: text))
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--out", text], mentions: text)
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "keep me")
    }

    @Test func reportOfAFileWithoutTheRun() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("r.h5").path
        let ok = try TestSupport.framelab(["run", "--source", "synthetic:32x24@100", "--frames", "3", "--out", out,
                                           "--run-id", "only"])
        #expect(ok.status == 0, "\(ok.stderr)")
        try expectOneLineError(["report", out, "--run", "other"], mentions: "no run 'other'")
    }
}
