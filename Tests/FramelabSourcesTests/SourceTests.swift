import FramelabCore
import FramelabCV
import FramelabPipeline
import FramelabSources
import FramelabTestSupport
import Foundation
import Testing

@Suite struct SourceTests {
    /// The program's start-up would silence FFmpeg (the truncated and unreadable videos
    /// here make it talk); a test process has no start-up of its own.
    init() { VideoLogs.quiet() }

    func drain(_ source: any FrameSource, limit: Int = 1000) throws -> [SourceItem] {
        var items: [SourceItem] = []
        while items.count < limit, let item = try source.next() { items.append(item) }
        return items
    }

    func writeImages(_ count: Int, in dir: URL) throws {
        for i in 0..<count {
            let m = Mat(format: .bgra8, width: 20, height: 10)
            m.fill([Double(i), 0, 0, 255])
            try ImageCodec.write(m, to: dir.appendingPathComponent(String(format: "img%02d.png", i)).path)
        }
    }

    @Test func imageSourceDeliversTheImageRepeatTimes() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        try writeImages(1, in: dir)
        let source = try SourceRegistry.builtIns.open("image:\(dir.path)/img00.png?repeat=3")
        let items = try drain(source)
        #expect(items.count == 3)
        guard case .frame(let f) = items[2] else { Issue.record("expected a frame"); return }
        #expect(f.index == 2 && f.image.width == 20 && f.image.format == .bgra8)
        #expect(!source.isLive && source.defaultPolicy == .keepAll)
    }

    @Test func imageFolderIsSortedAndACorruptFileIsAFailureNotAnError() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        try writeImages(3, in: dir)
        try Data("garbage".utf8).write(to: dir.appendingPathComponent("img01b.jpg"))
        try Data("notes".utf8).write(to: dir.appendingPathComponent("readme.txt"))
        let items = try drain(try SourceRegistry.builtIns.open("images:\(dir.path)"))
        #expect(items.count == 4)
        var frames: [Int] = []
        for item in items {
            switch item {
            case .frame(let f): frames.append(Int(f.image.pixel(x: 0, y: 0)[0]))
            case .failure(let index, let origin, let reason):
                #expect(index == 2 && origin.hasSuffix("img01b.jpg") && reason.contains("img01b.jpg"))
            case .event(let kind, _):
                Issue.record("an image folder reports no source events, got \(kind)")
            }
        }
        #expect(frames == [0, 1, 2])
    }

    @Test func videoSourceDeliversEveryFrameWithIncreasingPts() throws {
        let path = try makeVideo(frames: 10, fps: 50)
        let source = try SourceRegistry.builtIns.open("video:\(path)")
        let items = try drain(source)
        #expect(items.count == 10)
        let pts = items.compactMap { if case .frame(let f) = $0 { return f.pts } else { return nil } }
        #expect(pts == pts.sorted() && Set(pts).count == 10)
        #expect(abs(Double(pts[9] - pts[0]) / 1e6 - 180) < 1)  // 9 intervals of 20 ms
    }

    @Test func realtimePaceReleasesFramesAtTheirPresentationTimes() throws {
        let path = try makeVideo(frames: 10, fps: 50)
        let source = try SourceRegistry.builtIns.open("video:\(path)?pace=realtime")
        let start = MonotonicClock.now()
        let items = try drain(source)
        let elapsed = Double(MonotonicClock.now() - start) / 1e6
        #expect(items.count == 10)
        #expect(elapsed >= 175)  // the last frame is due at 180 ms
        let fast = try SourceRegistry.builtIns.open("video:\(path)")
        let fastStart = MonotonicClock.now()
        _ = try drain(fast)
        #expect(Double(MonotonicClock.now() - fastStart) / 1e6 < elapsed)
    }

    @Test func truncatedVideoIsAnErrorAfterItsFrames() throws {
        let path = try makeVideo(frames: 40, fps: 25, size: (160, 120))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = path.replacingOccurrences(of: ".avi", with: "-cut.avi")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let source = try SourceRegistry.builtIns.open("video:\(cut)")
        var delivered = 0
        let error = #expect(throws: FramelabError.self) {
            while try source.next() != nil { delivered += 1 }
        }
        #expect(error?.message.contains(cut) == true)
        #expect(delivered > 0 && delivered < 40)
    }

    @Test func syntheticFramesAreDeterministicAndNumbered() throws {
        let a = try SyntheticSource.render(index: 5, width: 64, height: 48)
        let b = try SyntheticSource.render(index: 5, width: 64, height: 48)
        let c = try SyntheticSource.render(index: 6, width: 64, height: 48)
        #expect(a.hasSamePixels(as: b))
        #expect(!a.hasSamePixels(as: c))
        let source = try SourceRegistry.builtIns.open("synthetic:64x48@200")
        #expect(source.isLive && source.defaultPolicy == .dropLate && source.nominalFPS == 200)
        let start = MonotonicClock.now()
        let items = try drain(source, limit: 21)
        #expect(Double(MonotonicClock.now() - start) / 1e6 >= 99)  // frame 20 is due at 100 ms
        guard case .frame(let f) = items[5] else { Issue.record("expected a frame"); return }
        #expect(f.image.hasSamePixels(as: a) && f.pts == 25_000_000)
    }

    /// A PNG through FFmpeg's image2 demuxer reports a presentation time far outside Int64
    /// nanoseconds; it used to trap converting it.
    @Test func aStillImageGivenAsVideoIsOneFrameAtTimeZero() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        try writeImages(1, in: dir)
        let source = try SourceRegistry.builtIns.open("video:" + dir.appendingPathComponent("img00.png").path)
        let items = try drain(source)
        #expect(items.count == 1)
        guard case .frame(let f)? = items.first else { Issue.record("expected a frame"); return }
        #expect(f.pts == 0)
    }

    @Test(arguments: [
        ("webcam:0", "unknown scheme 'webcam'"),
        ("nothing", "expected SCHEME:TARGET"),
        ("synthetic:640x480", "expected synthetic:WIDTHxHEIGHT@FPS"),
        ("synthetic:0x480@30", "width and height must be"),
        ("synthetic:64x48@0", "FPS must be 0.001…1000"),
        ("synthetic:64x48@1e-10", "FPS must be 0.001…1000"),
        ("video:/nonexistent/clip.mp4", "video '/nonexistent/clip.mp4': no such file"),
        ("image:/nonexistent/a.png", "image '/nonexistent/a.png': no such file"),
        ("images:/nonexistent", "image folder '/nonexistent': no such directory"),
        ("synthetic:64x48@30?speed=2", "unknown option 'speed'"),
    ])
    func badSpecsAreErrorsNamingTheInput(spec: String, expected: String) {
        let error = #expect(throws: FramelabError.self) { try SourceRegistry.builtIns.open(spec) }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }
}

/// Writes a Motion-JPEG AVI of flat frames whose blue level is the frame index * 10.
func makeVideo(frames: Int, fps: Double, size: (Int, Int) = (32, 24)) throws -> String {
    let dir = try TestSupport.makeTemporaryDirectory()
    let path = dir.appendingPathComponent("clip.avi").path
    let writer = try VideoWriter(path: path, fps: fps, width: size.0, height: size.1)
    for i in 0..<frames {
        let m = Mat(format: .bgra8, width: size.0, height: size.1)
        m.fill([Double(i * 10 % 256), 50, 50, 255])
        // Noise keeps the JPEG frames large, so cutting the file cuts frames.
        for y in stride(from: 0, to: size.1, by: 3) { for x in stride(from: 0, to: size.0, by: 5) {
            m.setPixel(x: x, y: y, [Double((x * 31 + y * 17 + i * 7) % 256), 0, 255, 255])
        } }
        try writer.write(m)
    }
    writer.close()
    return path
}
