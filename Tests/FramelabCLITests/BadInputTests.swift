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

    /// An unknown element hints at --plugin-path; --snapshot makes its folder instead of refusing it.
    @Test func unknownElementsHintAtThePluginPathAndSnapshotFoldersAreMade() throws {
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--filter", "posterise"], mentions: "--plugin-path")
        let dir = try TestSupport.makeTemporaryDirectory()
        let shots = dir.appendingPathComponent("new/shots")
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@100", "--frames", "2", "--filter", "gray",
                                          "--snapshot", shots.path, "--snapshot-every", "1", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        #expect(files.filter { $0.hasSuffix(".png") }.count == 2, "\(files)")
        let file = dir.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let refused = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "1", "--snapshot", file.path])
        #expect(refused.status != 0 && refused.stderr.contains("is not a writable folder"), "\(refused.stderr)")
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

    /// Numbers from input that used to trap (SIGILL, rc 132).
    @Test func numbersFromInputNeverTrap() throws {
        try expectOneLineError(["run", "--source", "synthetic:64x48@1e-10", "--frames", "2"], mentions: "synthetic:64x48@1e-10")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--filter", "crop:x=9223372036854775807"],
                               mentions: "parameter 'x' = 9223372036854775807")
        try expectOneLineError(["filters", "--explain", "--filter", "crop:x=9223372036854775807"],
                               mentions: "parameter 'x' = 9223372036854775807")
        // A PNG given as video: FFmpeg's image2 decodes it as one frame with a nonsense time.
        let png = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/camera.png").path
        let still = try TestSupport.framelab(["run", "--source", "video:\(png)", "--quiet"])
        #expect(still.status == 0 && still.stderr.isEmpty, "\(still.status) \(still.stderr)")
        let dir = try TestSupport.makeTemporaryDirectory()
        let wider = dir.appendingPathComponent("wider_face_val_bbx_gt.txt").path
        try Data("a.jpg\n1\n1 2 3 4 0 0 0 1e300 0 0\n".utf8).write(to: URL(fileURLWithPath: wider))
        try expectOneLineError(["dataset", "info", "wider:\(wider)"], mentions: "\(wider)' line 3")
    }

    /// In-range parameters and small files that asked for gigabytes or terabytes.
    @Test func unboundedAllocationsAreRefused() throws {
        for matrix in ["100000 0 0 100000 0 0", "1000 0 0 1000 0 0"] {
            try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--filter", "affine:matrix=\(matrix)"],
                                   mentions: "'\(matrix)' enlarges")
        }
        try expectOneLineError(["filters", "--explain", "--filter", "affine:matrix=8 0 0 8 0 0", "--size", "9223372036854775807x3"],
                               mentions: "9223372036854775807x3")
        try expectOneLineError(["bench", "filters", "--filter", "sepia", "--size", "100000x100000"], mentions: "100000x100000")
        let dir = try TestSupport.makeTemporaryDirectory()
        let png = dir.appendingPathComponent("huge.png").path
        func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let header = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(25000) + be(25000)
        try Data(header + [8, 6, 0, 0, 0] + be(0)).write(to: URL(fileURLWithPath: png))
        try expectOneLineError(["run", "--source", "image:\(png)"], mentions: "image '\(png)': its header declares 25000x25000")
    }

    /// Windows line ends load; malformed XML is one line naming the file and the line.
    @Test func annotationFilesWithCRLFAndMalformedXML() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let csv = dir.appendingPathComponent("faces.csv").path
        try Data("image,x,y,width,height\r\na.png,1,2,3,4\r\nb.png,,,,\r\n".utf8).write(to: URL(fileURLWithPath: csv))
        let info = try TestSupport.framelab(["dataset", "info", "csv:\(csv)"])
        #expect(info.status == 0, "\(info.stderr)")
        let bad = dir.appendingPathComponent("bad.csv").path
        try Data(("image,x,y,width,height\r\n" + String(repeating: "a.png,1,2,3,x\r", count: 200)).utf8)
            .write(to: URL(fileURLWithPath: bad))
        try expectOneLineError(["dataset", "info", "csv:\(bad)"], mentions: "'\(bad)' line 2")
        let xml = dir.appendingPathComponent("cut.xml").path
        try Data("<dataset><images>\n<image file='a.jpg'>\n<box top='1' left='2' width='3' height='4'/>\n</image>\n<image file='b.j".utf8)
            .write(to: URL(fileURLWithPath: xml))
        try expectOneLineError(["dataset", "info", "dlib:\(xml)"], mentions: "'\(xml)' line 5")
    }

    /// `--out` (and `--record`) never replace what is not a regular file.
    @Test func outputsThatAreNotRegularFilesAreLeftAlone() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let fifo = dir.appendingPathComponent("pipe.h5").path
        #expect(mkfifo(fifo, 0o644) == 0)
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--out", fifo], mentions: "'\(fifo)': it is a FIFO")
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--out", "/dev/null"],
                               mentions: "'/dev/null': it is a character device")
        try expectOneLineError(["bench", "filters", "--filter", "sepia", "--size", "64x48", "--out", fifo], mentions: fifo)
        let video = dir.appendingPathComponent("pipe.mkv").path
        #expect(mkfifo(video, 0o644) == 0)
        try expectOneLineError(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--record", video], mentions: video)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        // A link to an empty file: the recording goes to the target; the link stays.
        let target = dir.appendingPathComponent("empty.h5").path
        FileManager.default.createFile(atPath: target, contents: nil)
        let link = dir.appendingPathComponent("link.h5").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let ok = try TestSupport.framelab(["run", "--source", "synthetic:64x48@100", "--frames", "2", "--out", link, "--quiet"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try TestSupport.framelab(["report", target]).status == 0)
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
