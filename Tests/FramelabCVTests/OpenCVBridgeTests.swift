import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

@Suite struct OpenCVBridgeTests {
    /// The program's start-up would silence FFmpeg (the truncated and unreadable videos
    /// here make it talk); a test process has no start-up of its own.
    init() { VideoLogs.quiet() }

    @Test func cvMatHeaderPointsAtTheSamePixels() {
        let m = Mat(format: .bgra8, width: 33, height: 17, stride: 33 * 4 + 12)
        #expect(m.openCVHeaderAddress == m.pixelAddress)
        let view = m.view(x: 5, y: 3, width: 10, height: 4)
        #expect(view.openCVHeaderAddress == view.pixelAddress)
    }

    @Test func openCVWritesThroughTheHeaderIntoAView() throws {
        let parent = Mat(format: .bgra8, width: 20, height: 10, stride: 20 * 4 + 32)
        let view = parent.view(x: 4, y: 2, width: 8, height: 5)
        try view.openCVFill(x: 1, y: 1, width: 3, height: 2, value: [10, 20, 30, 40])
        // OpenCV's write is visible in the view and in the parent, and nowhere else.
        #expect(view.pixel(x: 1, y: 1) == [10, 20, 30, 40])
        #expect(parent.pixel(x: 5 + 2, y: 3 + 1) == [10, 20, 30, 40])
        #expect(parent.pixel(x: 4, y: 2) == [0, 0, 0, 0])
        #expect(parent.pixel(x: 8, y: 3) == [0, 0, 0, 0])
    }

    @Test func bgraToGrayMatchesTheBT601Formula() throws {
        let m = Mat(format: .bgra8, width: 16, height: 4)
        var rng = SplitMix64(seed: 7)
        for y in 0..<4 { for x in 0..<16 {
            m.setPixel(x: x, y: y, [Double(rng.next() % 256), Double(rng.next() % 256), Double(rng.next() % 256), 255])
        } }
        let gray = try m.converted(to: .gray8)
        #expect(gray.format == .gray8)
        for y in 0..<4 { for x in 0..<16 {
            let p = m.pixel(x: x, y: y)
            let luma = 0.114 * p[0] + 0.587 * p[1] + 0.299 * p[2]
            #expect(abs(gray.pixel(x: x, y: y)[0] - luma) <= 1)
        } }
    }

    @Test(arguments: [(PixelFormat.bgra8, PixelFormat.bgr8), (.bgr8, .bgra8), (.gray8, .grayF32), (.grayF32, .gray8), (.gray8, .bgra8)])
    func conversionsKeepValues(from: PixelFormat, to: PixelFormat) throws {
        let m = Mat(format: from, width: 5, height: 3)
        m.fill(Array(repeating: 77, count: from.channels))
        let out = try m.converted(to: to)
        #expect(out.format == to)
        #expect(out.pixel(x: 4, y: 2).prefix(min(3, to.channels)).allSatisfy { $0 == 77 })
    }

    @Test func pngRoundTripIsExact() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let m = Mat(format: .bgra8, width: 31, height: 9)
        for y in 0..<9 { for x in 0..<31 { m.setPixel(x: x, y: y, [Double(x * 8), Double(y * 20), 99, 255]) } }
        let path = dir.appendingPathComponent("a.png").path
        try ImageCodec.write(m, to: path)
        let back = try ImageCodec.read(path, as: .bgra8)
        #expect(back.hasSamePixels(as: m))
    }

    @Test func missingAndCorruptImagesNameTheFile() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let missing = dir.appendingPathComponent("nope.png").path
        #expect(throws: FramelabError(.io, "image '\(missing)': no such file")) { try ImageCodec.read(missing) }
        let corrupt = dir.appendingPathComponent("bad.png").path
        try Data("this is not a png".utf8).write(to: URL(fileURLWithPath: corrupt))
        let error = #expect(throws: FramelabError.self) { try ImageCodec.read(corrupt) }
        #expect(error?.message.contains(corrupt) == true)
        #expect(error?.kind == .corrupt)
    }

    @Test func videoWrittenThenReadKeepsFrameCountAndContent() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("clip.avi").path
        let writer = try VideoWriter(path: path, fps: 25, width: 64, height: 48)
        for i in 0..<12 {
            let m = Mat(format: .bgra8, width: 64, height: 48)
            m.fill([Double(i * 20), 128, 255 - Double(i * 20), 255])
            try writer.write(m)
        }
        writer.close()
        let reader = try VideoReader(path: path)
        #expect(reader.width == 64 && reader.height == 48)
        #expect(reader.fps == 25)
        #expect(reader.declaredFrameCount == 12)
        var count = 0
        var lastPts = -1.0
        while let (image, pts) = try reader.next() {
            #expect(image.format == .bgra8)
            // Motion JPEG is lossy: compare a flat frame's centre within a few levels.
            #expect(abs(image.pixel(x: 32, y: 24)[0] - Double(count * 20)) <= 6)
            #expect(pts > lastPts)
            lastPts = pts
            count += 1
        }
        #expect(count == 12)
    }

    @Test func unreadableVideoIsAnErrorNamingIt() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("junk.mp4").path
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FramelabError.self) { try VideoReader(path: path) }
        #expect(error?.message.contains(path) == true)
    }
}
