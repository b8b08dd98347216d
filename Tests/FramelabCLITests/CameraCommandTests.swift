import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// `framelab run --source camera:…` and `framelab devices` against the emulated webcam
/// (Tests/FakeWebcam, preloaded): the real V4L2 code path through libv4l2, end to end.
@Suite(.serialized) struct CameraCommandTests {
    func camera(_ arguments: [String], devices: [String] = ["/dev/video0"], fault: String? = nil,
                formats: String = "yuyv,mjpeg") throws -> TestSupport.ProcessResult {
        try TestSupport.framelab(arguments, environment: FakeWebcam.environment(
            devices: devices, formats: formats, fault: fault, fastFPS: 120))
    }

    /// The mean BGRA of a 9x9 patch around (x, y).
    func patch(_ image: Mat, x: Int, y: Int) -> [Double] {
        var sum = [0.0, 0, 0, 0]
        for dy in -4...4 { for dx in -4...4 { for (i, v) in image.pixel(x: x + dx, y: y + dy).enumerated() { sum[i] += v } } }
        return sum.map { $0 / 81 }
    }

    @Test func devicesListsTheEmulatedCameraWithFormatsSizesAndRates() throws {
        let text = try camera(["devices"], devices: ["/dev/video0", "/dev/video2"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("/dev/video0  Framelab Emulated Webcam 1  [driver uvcvideo"))
        #expect(text.stdout.contains("/dev/video2  Framelab Emulated Webcam 2"))
        #expect(text.stdout.contains("MJPG (format=mjpeg) Motion-JPEG, compressed"))
        #expect(text.stdout.contains("1280x720 @ 10 fps"))  // YUYV at 720p is slow, as on USB 2
        // libv4l2's converted formats (RGB3, YU12, …) are not the camera's own.
        #expect(!text.stdout.contains("RGB3"))

        let json = try camera(["devices", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let devices = object["devices"] as! [[String: Any]]
        #expect(devices.count == 1)
        #expect(devices[0]["path"] as? String == "/dev/video0")
        #expect(devices[0]["bus"] as? String == "usb-0000:00:14.0-1")
        let formats = devices[0]["formats"] as! [[String: Any]]
        #expect(formats.map { $0["fourcc"] as! String } == ["YUYV", "MJPG"])
        let sizes = formats[0]["sizes"] as! [[String: Any]]
        #expect(sizes[0]["width"] as? Int == 640 && sizes[0]["height"] as? Int == 480)
        #expect(sizes[0]["rates"] as? [Double] == [120, 30, 15])
    }

    @Test func devicesWithNoCameraSaysSoAndSkipsNonCaptureNodes() throws {
        let none = try TestSupport.framelab(["devices"])
        #expect(none.status == 0)
        #expect(none.stdout.contains("no video capture devices found"))
        let meta = try camera(["devices"], fault: "not-capture")
        #expect(meta.stdout.contains("skipped /dev/video0: Framelab Emulated Webcam 1 — metadata capture"))
        let missing = try TestSupport.framelab(["devices", "/dev/video9"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("camera '/dev/video9': no such device"))
    }

    /// The done-when command, in both formats: 300 processed frames in the video file.
    @Test(arguments: ["yuyv", "mjpeg"])
    func recordsThreeHundredSepiaFrames(format: String) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let video = dir.appendingPathComponent("out.mkv").path
        let h5 = dir.appendingPathComponent("X.h5").path
        let run = try camera(["run", "--source", "camera:/dev/video0?format=\(format)&width=640&height=480&fps=120",
                              "--frames", "300", "--filter", "sepia", "--record", video, "--out", h5])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("300 frames processed"))
        #expect(run.stderr.contains("granted 640x480@120 \(format) with 4 buffers"))

        let reader = try VideoReader(path: video)
        #expect(reader.width == 640 && reader.height == 480)
        var count = 0
        var first: Mat?
        while let (image, _) = try reader.next() {
            if first == nil { first = image }
            count += 1
        }
        #expect(count == 300)
        // Sepia turns every bar warm: red over green over blue (BGRA order), white bar brightest.
        let white = patch(try #require(first), x: 20, y: 240)
        #expect(white[2] > white[1] && white[1] > white[0], "\(white)")
        #expect(white[2] > 180)
        let report = try TestSupport.framelab(["report", h5, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("\"processed\" : 300"))
    }

    @Test func framesAreTheCamerasPictureConvertedToBGRA() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        // libv4lconvert's YUYV conversion scales chroma by 2.02 where BT.601 says 1.77, so
        // saturated blue comes out up to ~25 too bright; libjpeg's MJPEG decode is close.
        for (format, tolerance) in [("yuyv", 30.0), ("mjpeg", 12.0)] {
            let shots = dir.appendingPathComponent(format)
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            let run = try camera(["run", "--source", "camera:/dev/video0?format=\(format)&width=320&height=240",
                                  "--frames", "1", "--snapshot", shots.path, "--snapshot-every", "1"])
            #expect(run.status == 0, "\(run.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: shots.path)
            let file = try #require(files.first)
            let image = try ImageCodec.read(shots.appendingPathComponent(file).path)
            let index = Int(file.dropFirst("frame-".count).prefix(8))!
            // Bars scroll 4 pixels a frame: find the bar under each sample point for this frame.
            for x in stride(from: 20, to: 320, by: 40) {
                let bar = ((x + index * 4) % 320) * 8 / 320
                let want = FakeWebcam.barsRGB[bar]
                let got = image.pixel(x: x, y: 120)
                #expect(abs(got[2] - Double(want.0)) < tolerance && abs(got[1] - Double(want.1)) < tolerance
                        && abs(got[0] - Double(want.2)) < tolerance, "\(format) x=\(x) frame \(index): \(got) vs \(want)")
            }
        }
    }

    @Test func negotiationReportsTheClosestOfferWhenTheRequestIsNotOffered() throws {
        let run = try camera(["run", "--source", "camera:/dev/video0?format=yuyv&width=1300&height=700&fps=30",
                              "--frames", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("requested 1300x700@30 yuyv, granted 1280x720@10 yuyv"))
    }

    @Test func orientationAndMirrorTurnTheFrame() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let run = try camera(["run", "--source", "camera:/dev/video0?width=320&height=240&orientation=90&mirror=true&format=mjpeg",
                              "--frames", "1", "--snapshot", dir.path, "--snapshot-every", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).first)
        let image = try ImageCodec.read(dir.appendingPathComponent(file).path)
        #expect(image.width == 240 && image.height == 320)
        // Rotated clockwise, the bars run top to bottom; mirroring does not change a column of
        // bars, so check the rows: row y shows the bar that was at column y (before scrolling).
        let index = Int(file.dropFirst("frame-".count).prefix(8))!
        for y in [20, 100, 180, 300] {
            let bar = ((y + index * 4) % 320) * 8 / 320
            let want = FakeWebcam.barsRGB[bar], got = image.pixel(x: 120, y: y)
            #expect(abs(got[2] - Double(want.0)) < 12 && abs(got[0] - Double(want.2)) < 12, "y=\(y): \(got) vs \(want)")
        }
    }

    @Test func unpluggingMidStreamStopsTheRunAndRecordsWhy() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let h5 = dir.appendingPathComponent("unplug.h5").path
        let video = dir.appendingPathComponent("unplug.mkv").path
        let run = try camera(["run", "--source", "camera:/dev/video0?fps=120", "--frames", "300",
                              "--filter", "sepia", "--record", video, "--out", h5], fault: "unplug:40")
        #expect(run.status == 1)
        #expect(run.stderr.contains("camera '/dev/video0': disconnected after"))
        #expect(run.stderr.contains("VIDIOC_DQBUF answered ENODEV) — plug the camera back in"))
        #expect(!run.signalled)
        // The frames processed before the unplug are kept, in the video and in the record.
        let processed = try #require(Int(run.stdout.prefix { $0 != " " }))
        #expect(processed > 0 && processed <= 40)
        let reader = try VideoReader(path: video)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == processed)
        let report = try TestSupport.framelab(["report", h5])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("status failed: camera '/dev/video0': disconnected after"))
    }

    @Test func permissionBusyAndNotCaptureErrorsSayHowToFixThem() throws {
        let cases: [(String, String)] = [
            ("eacces", "permission denied (EACCES) — add your user to the 'video' group"),
            ("ebusy", "device busy (VIDIOC_S_FMT answered EBUSY) — another program is using it"),
            ("not-capture", "not a video capture device (Framelab Emulated Webcam 1, driver uvcvideo: metadata capture)"),
        ]
        for (fault, message) in cases {
            let run = try camera(["run", "--source", "camera:/dev/video0", "--frames", "5"], fault: fault)
            #expect(run.status == 1, "\(fault)")
            #expect(run.stderr.contains("framelab: error: camera '/dev/video0': " + message), "\(run.stderr)")
        }
    }

    @Test func aFormatTheCameraLacksListsWhatItOffers() throws {
        let run = try camera(["run", "--source", "camera:/dev/video0?format=nv12", "--frames", "5"], formats: "yuyv")
        #expect(run.status == 1)
        #expect(run.stderr.contains("no format matches format=nv12 (NV12); the device offers: "
            + "YUYV (format=yuyv) 640x480@120/30/15, 320x240@120/30/15, 1280x720@10"), "\(run.stderr)")
    }

    @Test func badCameraOptionsAreNamed() throws {
        for (spec, message) in [
            ("camera:/dev/video0?orientation=45", "orientation must be 0, 90, 180 or 270, got '45'"),
            ("camera:/dev/video0?mirror=maybe", "mirror must be true or false, got 'maybe'"),
            ("camera:/dev/video0?buffers=1", "buffers must be an integer in 2…32, got '1'"),
            ("camera:/dev/video0?zoom=2", "unknown option 'zoom'"),
        ] {
            let run = try camera(["run", "--source", spec, "--frames", "1"])
            #expect(run.status == 1)
            #expect(run.stderr.contains(message), "\(spec): \(run.stderr)")
        }
    }

    @Test func aStalledDriverIsRetriedThenStopsWithAMessage() throws {
        let run = try camera(["run", "--source", "camera:/dev/video0?fps=120&timeout-ms=200&retries=2",
                              "--frames", "300", "--policy", "keep-all"], fault: "stall:20")
        #expect(run.status == 1)
        #expect(run.stdout.contains("20 frames processed"))
        #expect(run.stderr.contains("no frame within 200 ms, 3 times in a row (after 20 frames)"))
    }

    @Test func maxFPSCapsTheProcessedRateAndRecordsTheRestAsDropped() throws {
        let run = try camera(["run", "--source", "camera:/dev/video0?width=320&height=240&fps=120",
                              "--frames", "20", "--max-fps", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(run.stdout.split(separator: "\n").first)
        // "20 frames processed, D dropped, 0 failed, F fps": about 5 of 6 frames dropped at 120 → 20.
        let numbers = summary.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        #expect(numbers[0] == 20)
        #expect(numbers[1] >= 60, "\(summary)")
        #expect(numbers[3] < 24, "\(summary)")
    }

    @Test func sigusr1SwitchesDeviceWithoutStoppingAndSigusr2TakesASnapshot() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let h5 = dir.appendingPathComponent("switch.h5").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.framelabBinary)
        process.arguments = ["run", "--source", "camera:/dev/video0,/dev/video2?width=320&height=240",
                             "--frames", "150", "--snapshot", dir.path, "--out", h5, "--quiet"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            try FakeWebcam.environment(devices: ["/dev/video0", "/dev/video2"])) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait for the negotiation line: the camera streams, and the signal handlers (installed
        // first thing in a run) are in place.
        var early = Data()
        while !String(decoding: early, as: UTF8.self).contains("granted") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            early.append(chunk)
        }
        kill(process.processIdentifier, SIGUSR2)
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGUSR1)
        Thread.sleep(forTimeInterval: 0.8)
        kill(process.processIdentifier, SIGUSR2)
        let stderr = String(decoding: early + err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("SIGUSR1: switching to the next camera"))
        let shots = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(shots.count == 2, "\(shots)")
        guard shots.count == 2 else { return }
        // Device 2 draws the bars in reverse order: its snapshot's left edge is a different bar.
        func leftBar(_ file: String) throws -> [Double] {
            try ImageCodec.read(dir.appendingPathComponent(file).path).pixel(x: 2, y: 120)
        }
        let before = try leftBar(shots[0]), after = try leftBar(shots[1])
        #expect(before != after, "\(before) \(after)")
        let report = try TestSupport.framelab(["report", h5])
        #expect(report.stdout.contains("150 processed"), "\(report.stdout)")
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            run = f["runs"][list(f["runs"].keys())[0]]
            events = run["events"][:]
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            for e in events: print(s(e["kind"]), s(e["detail"]))
            """, arguments: [h5])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout.contains("device-switch from /dev/video0 to /dev/video2"), "\(py.stdout)")
        #expect(py.stdout.contains("snapshot \(dir.path)"), "\(py.stdout)")
    }

    @Test func helpDocumentsCameraSourcesAndLiveOptions() throws {
        let run = try TestSupport.framelab(["run", "--help"])
        for text in ["camera:/dev/videoN", "--max-fps", "--record", "--snapshot", "--snapshot-every", "--preview"] {
            #expect(run.stdout.contains(text), "\(text)")
        }
        let devices = try TestSupport.framelab(["devices", "--help"])
        #expect(devices.stdout.contains("List video capture devices"))
        #expect(devices.stdout.contains("--json"))
    }
}
