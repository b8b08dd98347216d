import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// `--preview` under Xvfb: a real highgui window, screenshotted with xwd (x11-apps) and
/// checked for the camera's colour bars and the yellow timing overlay; its keys pressed
/// with xdotool (real X key events through XTEST).
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

    @Test func previewKeysSwitchCameraSaveSnapshotAndQuit() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let h5 = dir.appendingPathComponent("keys.h5").path
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let env = try FakeWebcam.environment(devices: ["/dev/video0", "/dev/video2"])
        let exports = env.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // Far more frames than the test waits for: only the q key can end this run in time.
        let script = """
            env \(exports) '\(TestSupport.framelabBinary)' run --source 'camera:/dev/video0,/dev/video2?width=320&height=240' \
                --filter sepia --frames 100000 --preview --quiet --snapshot '\(shots.path)' --out '\(h5)' &
            pid=$!
            for i in $(seq 1 300); do
                w=$(xdotool search --name '^framelab preview$' 2>/dev/null | head -1)
                [ -n "$w" ] && break
                sleep 0.1
            done
            [ -n "$w" ] || { echo "no preview window" >&2; kill $pid; exit 3; }
            sleep 1
            xdotool windowfocus "$w"
            xdotool key n; sleep 1
            xdotool key s; sleep 1
            xdotool key q
            # If q were ignored the run would go on for minutes: stop it, and fail.
            for i in $(seq 1 200); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
            if kill -0 $pid 2>/dev/null; then kill $pid; echo "q did not stop the run" >&2; exit 4; fi
            wait $pid
            """
        let run = try TestSupport.run("/usr/bin/xvfb-run", ["-a", "-s", "-screen 0 800x600x24", "/bin/sh", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: shots.path).filter { $0.hasSuffix(".png") }
        #expect(saved.count == 1, "snapshots: \(saved)")
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            run = f["runs"][list(f["runs"].keys())[0]]
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            for e in run["events"][:]: print(s(e["kind"]), s(e["detail"]))
            print("frames", len(run["frames"]), "status", s(run.attrs["status"]))
            """, arguments: [h5])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout.contains("device-switch from /dev/video0 to /dev/video2"), "\(py.stdout)")
        #expect(py.stdout.contains("snapshot \(shots.path)"), "\(py.stdout)")
        // q ended the run long before its 100,000 frames, and the record says so.
        #expect(!py.stdout.contains("frames 100000"), "\(py.stdout)")
    }
}
