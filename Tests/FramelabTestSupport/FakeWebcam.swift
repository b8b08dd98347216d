import Foundation

/// The emulated webcam (Tests/FakeWebcam/fake_webcam.c, preloaded with LD_PRELOAD): built
/// on first use by scripts/fake-webcam.sh, configured through environment variables.
public enum FakeWebcam {
    /// Path of the built preload library (built once per test process).
    public static let library: Result<String, FakeWebcamBuildError> = {
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/fake-webcam.sh").path
        guard let result = try? TestSupport.run("/bin/bash", [script]), result.status == 0 else {
            return .failure(FakeWebcamBuildError(message: "scripts/fake-webcam.sh failed"))
        }
        return .success(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    public struct FakeWebcamBuildError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Environment for a process that should see emulated cameras at `devices`.
    /// `fault`: eacces, ebusy, not-capture, unplug:N or stall:N. `fastFPS` adds a rate.
    public static func environment(devices: [String] = ["/dev/video0"], formats: String = "yuyv,mjpeg",
                                   fault: String? = nil, fastFPS: Int? = nil) throws -> [String: String] {
        var env = [
            "LD_PRELOAD": try library.get(),
            "FRAMELAB_FAKE_WEBCAM": devices.joined(separator: ","),
            "FRAMELAB_FAKE_WEBCAM_FORMATS": formats,
        ]
        if let fault { env["FRAMELAB_FAKE_WEBCAM_FAULT"] = fault }
        if let fastFPS { env["FRAMELAB_FAKE_WEBCAM_FPS"] = String(fastFPS) }
        return env
    }

    /// The colour bars the emulator draws (RGB, 75%), left to right on device 1 at frame 0.
    public static let barsRGB: [(UInt8, UInt8, UInt8)] = [
        (191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0),
        (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0),
    ]
}
