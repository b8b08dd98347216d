import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// `--preview` under Xvfb: a real highgui window, screenshotted with xwd (x11-apps) and
/// checked for the camera's colour bars and the yellow timing overlay.
@Suite(.serialized) struct PreviewWindowTests {
    /// An X window dump (xwd's format, ZPixmap, 24- or 32-bit pixels, TrueColor) as a BGRA image.
    static func readXWD(_ data: Data) throws -> Mat {
        let bytes = [UInt8](data)
        func u32(_ field: Int) -> UInt32 {
            let o = field * 4
            return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
        }
        let headerSize = Int(u32(0)), width = Int(u32(4)), height = Int(u32(5)), byteOrder = u32(7)
        let bitsPerPixel = Int(u32(11)), bytesPerLine = Int(u32(12))
        let masks = (r: u32(14), g: u32(15), b: u32(16)), colours = Int(u32(19))
        guard bitsPerPixel == 32 || bitsPerPixel == 24, u32(2) == 2 else {
            throw FramelabError(.unsupported, "xwd: \(bitsPerPixel) bits per pixel, format \(u32(2))")
        }
        let start = headerSize + 12 * colours
        let image = Mat(format: .bgra8, width: width, height: height)
        func shift(_ mask: UInt32) -> UInt32 { UInt32(mask.trailingZeroBitCount) }
        for y in 0..<height {
            for x in 0..<width {
                let n = bitsPerPixel / 8, o = start + y * bytesPerLine + n * x
                // Pixels are n-byte integers in the file's byte order (0: least significant first).
                var p: UInt32 = 0
                for i in 0..<n { p |= UInt32(bytes[o + i]) << (8 * UInt32(byteOrder == 0 ? i : n - 1 - i)) }
                image.setPixel(x: x, y: y, [Double((p & masks.b) >> shift(masks.b)), Double((p & masks.g) >> shift(masks.g)),
                                            Double((p & masks.r) >> shift(masks.r)), 255])
            }
        }
        return image
    }

    @Test func previewShowsProcessedFramesWithTheTimingOverlay() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let shot = dir.appendingPathComponent("screen.xwd").path
        let marks = dir.appendingPathComponent("marks")
        try FileManager.default.createDirectory(at: marks, withIntermediateDirectories: true)
        let env = try FakeWebcam.environment()
        // The preload must reach framelab only, not Xvfb: pass it inside the shell.
        let exports = env.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // Snapshots every 20 frames show that frames are flowing; the screenshot is taken
        // once the second one exists (the window has been drawn many times by then).
        let script = """
            env \(exports) '\(TestSupport.framelabBinary)' run --source 'camera:/dev/video0?width=640&height=480' \
                --filter sepia --frames 120 --preview --quiet --snapshot '\(marks.path)' --snapshot-every 20 &
            pid=$!
            for i in $(seq 1 300); do
                [ "$(ls '\(marks.path)' | wc -l)" -ge 2 ] && break
                sleep 0.1
            done
            xwd -root -silent > '\(shot)'
            wait $pid
            """
        let run = try TestSupport.run("/usr/bin/xvfb-run", ["-a", "-s", "-screen 0 800x600x24", "/bin/sh", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        let screen = try Self.readXWD(try Data(contentsOf: URL(fileURLWithPath: shot)))
        try ImageCodec.write(screen, to: dir.appendingPathComponent("screen.png").path)
        // Count sepia-toned bar pixels (warm: R > G > B, not black) and overlay text pixels (yellow).
        var warm = 0, yellow = 0, brightnessLevels = Set<Int>()
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                let p = screen.pixel(x: x, y: y)
                if x % 2 == 0 && y % 2 == 0 && p[2] > p[1] + 5 && p[1] > p[0] + 5 && p[2] > 40 {
                    warm += 1
                    brightnessLevels.insert(Int(p[2]) / 16)
                }
                if p[2] > 200 && p[1] > 200 && p[0] < 60 { yellow += 1 }
            }
        }
        // 640x480 of bars is 76,800 samples at step 2; the window must show most of them.
        #expect(warm > 40_000, "warm pixels \(warm); screenshot in \(dir.path)")
        #expect(brightnessLevels.count >= 4, "bars of distinct brightness: \(brightnessLevels.count)")
        #expect(yellow > 200, "overlay pixels \(yellow); screenshot in \(dir.path)")
    }
}
