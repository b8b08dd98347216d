import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// `--preview` under Xvfb: a real highgui window, screenshotted with xwd (x11-apps) and
/// checked for the camera's colour bars and the yellow timing overlay.
@Suite(.serialized) struct PreviewWindowTests {
    /// An X window dump (xwd's format, ZPixmap, 24/32-bit TrueColor) as a BGRA image.
    static func readXWD(_ data: Data) throws -> Mat {
        let bytes = [UInt8](data)
        func u32(_ field: Int) -> UInt32 {
            let o = field * 4
            return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
        }
        let headerSize = Int(u32(0)), width = Int(u32(4)), height = Int(u32(5)), byteOrder = u32(7)
        let bitsPerPixel = Int(u32(11)), bytesPerLine = Int(u32(12))
        let masks = (r: u32(14), g: u32(15), b: u32(16)), colours = Int(u32(19))
        guard bitsPerPixel == 32, u32(2) == 2 else {
            throw FramelabError(.unsupported, "xwd: \(bitsPerPixel) bits per pixel, format \(u32(2))")
        }
        let start = headerSize + 12 * colours
        let image = Mat(format: .bgra8, width: width, height: height)
        func shift(_ mask: UInt32) -> UInt32 { UInt32(mask.trailingZeroBitCount) }
        for y in 0..<height {
            for x in 0..<width {
                let o = start + y * bytesPerLine + 4 * x
                let p = byteOrder == 0
                    ? UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
                    : UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
                image.setPixel(x: x, y: y, [Double((p & masks.b) >> shift(masks.b)), Double((p & masks.g) >> shift(masks.g)),
                                            Double((p & masks.r) >> shift(masks.r)), 255])
            }
        }
        return image
    }

    @Test func previewShowsProcessedFramesWithTheTimingOverlay() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let shot = dir.appendingPathComponent("screen.xwd").path
        let env = try FakeWebcam.environment()
        // The preload must reach framelab only, not Xvfb: pass it inside the shell.
        let exports = env.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let script = """
            env \(exports) '\(TestSupport.framelabBinary)' run --source 'camera:/dev/video0?width=640&height=480' \
                --filter sepia --frames 150 --preview --quiet &
            pid=$!
            sleep 3.5
            xwd -root -silent > '\(shot)'
            wait $pid
            """
        let run = try TestSupport.run("/usr/bin/xvfb-run", ["-a", "-s", "-screen 0 800x600x24", "/bin/sh", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        let screen = try Self.readXWD(try Data(contentsOf: URL(fileURLWithPath: shot)))
        try ImageCodec.write(screen, to: dir.appendingPathComponent("screen.png").path)
        // Count sepia-toned bar pixels (warm: R > G > B, not black) and overlay text pixels (yellow).
        var warm = 0, yellow = 0, distinctRows = Set<Int>()
        for y in stride(from: 0, to: screen.height, by: 2) {
            for x in stride(from: 0, to: screen.width, by: 2) {
                let p = screen.pixel(x: x, y: y)
                if p[2] > p[1] + 5 && p[1] > p[0] + 5 && p[2] > 40 { warm += 1; distinctRows.insert(Int(p[2]) / 16) }
                if p[2] > 200 && p[1] > 200 && p[0] < 60 { yellow += 1 }
            }
        }
        // 640x480 of bars is 76,800 samples at step 2; the window must show most of them.
        #expect(warm > 40_000, "warm pixels \(warm); screenshot in \(dir.path)")
        #expect(distinctRows.count >= 4, "bars of distinct brightness: \(distinctRows.count)")
        #expect(yellow > 100, "overlay pixels \(yellow); screenshot in \(dir.path)")
    }
}
