import FramelabCore
import FramelabPipeline
import FramelabV4L2

/// `camera:/dev/videoN[,/dev/videoM…][?width=W&height=H&fps=F&format=yuyv|mjpeg&buffers=N
/// &orientation=0|90|180|270&mirror=true&timeout-ms=T&retries=R]`: a V4L2 camera through
/// libv4l2, a live source (drop-late by default).
///
/// Frames are BGRA8. A frame's `pts` is the driver's timestamp (monotonic nanoseconds,
/// the clock `arrival` uses), `arrival` the moment Framelab dequeued it. With more than
/// one device listed, `requestSwitch()` moves to the next one without stopping the run.
// @unchecked: only `requestSwitch()` is called from other threads, and it goes through a Monitor.
public final class CameraSource: LiveSource, @unchecked Sendable {
    public static let usage = "camera:/dev/videoN[,/dev/videoM][?width=W&height=H&fps=F&format=yuyv|mjpeg"
        + "&buffers=N&orientation=0|90|180|270&mirror=true&timeout-ms=T&retries=R] — a V4L2 camera (see docs/cameras.md)"
    static let optionNames = ["width", "height", "fps", "format", "buffers", "orientation", "mirror",
                              "timeout-ms", "retries"]

    public static let scheme = SourceScheme("camera", usage: usage) { try CameraSource(spec: $0) }

    public let spec: SourceSpec
    public let isLive = true
    public let expectedFrameCount: Int? = nil
    public let devices: [String]
    public let request: CameraRequest
    public var nominalFPS: Double? { capture.grant.fps }
    /// The device in use and what it granted (changes on a switch).
    public private(set) var capture: CameraCapture
    private var deviceIndex = 0
    private var index = 0
    private var pendingEvents: [SourceItem] = []
    private let switchRequested = Monitor(false)

    public init(spec: SourceSpec) throws {
        try spec.checkOptions(Self.optionNames)
        self.spec = spec
        devices = spec.target.split(separator: ",").map(String.init)
        guard !devices.isEmpty, devices.allSatisfy({ !$0.isEmpty }) else {
            throw FramelabError(.badInput, "source '\(spec)': expected \(Self.usage)")
        }
        request = try Self.parse(spec)
        capture = try CameraCapture(path: devices[0], request: request)
    }

    /// What was asked and what the driver granted, for the run's attributes and the console.
    public var negotiation: String {
        "\(capture.path) (\(capture.capabilities.card), \(capture.capabilities.driver)): requested "
            + "\(request.summary), granted \(capture.grant.summary) with \(capture.grant.buffers) buffers"
    }

    /// Asks the source thread to move to the next listed device (thread-safe; signal-handler safe
    /// in the sense that it only sets a flag under a lock).
    public func requestSwitch() { switchRequested.update { $0 = true } }

    public func next() throws -> SourceItem? {
        if switchRequested.update({ s in defer { s = false }; return s }) { switchDevice() }
        if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
        let captured = try capture.next()
        defer { index += 1 }
        return .frame(Frame(index: index, pts: Int64(captured.driverTimestampNs), arrival: captured.arrivalNs,
                            image: captured.image, origin: capture.path))
    }

    private func switchDevice() {
        guard devices.count > 1 else {
            pendingEvents.append(.event(kind: "device-switch-ignored",
                                        detail: "only one device listed (\(devices[0])); list more, comma separated"))
            return
        }
        let from = capture.path
        let nextIndex = (deviceIndex + 1) % devices.count
        do {
            let opened = try CameraCapture(path: devices[nextIndex], request: request)
            capture = opened
            deviceIndex = nextIndex
            pendingEvents.append(.event(kind: "device-switch",
                                        detail: "from \(from) to \(opened.path) at frame \(index); \(negotiation)"))
        } catch {
            pendingEvents.append(.event(kind: "device-switch-failed",
                                        detail: "staying on \(from): \(error)"))
        }
    }

    static func parse(_ spec: SourceSpec) throws -> CameraRequest {
        var request = CameraRequest()
        func int(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = spec.options[key] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw FramelabError(.badInput, "source '\(spec)': \(key) must be an integer in "
                    + "\(range.lowerBound)…\(range.upperBound), got '\(text)'")
            }
            return value
        }
        request.width = try int("width", 1...16384)
        request.height = try int("height", 1...16384)
        if let text = spec.options["fps"] {
            guard let fps = Double(text), fps > 0, fps <= 1000 else {
                throw FramelabError(.badInput, "source '\(spec)': fps must be above 0 and at most 1000, got '\(text)'")
            }
            request.fps = fps
        }
        if let text = spec.options["format"] {
            guard let code = FourCC(userName: text) else {
                throw FramelabError(.badInput, "source '\(spec)': format must be yuyv, mjpeg or a four-character "
                    + "V4L2 code, got '\(text)'")
            }
            request.format = code
        }
        request.buffers = try int("buffers", 2...32) ?? CameraRequest.defaultBufferCount
        request.timeoutMilliseconds = try int("timeout-ms", 10...600_000) ?? CameraRequest.defaultTimeoutMilliseconds
        request.retries = try int("retries", 0...100) ?? CameraRequest.defaultRetries
        if let text = spec.options["orientation"] {
            guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
                throw FramelabError(.badInput, "source '\(spec)': orientation must be 0, 90, 180 or 270, got '\(text)'")
            }
            request.orientation = degrees
        }
        if let text = spec.options["mirror"] {
            guard let mirror = Bool(text) else {
                throw FramelabError(.badInput, "source '\(spec)': mirror must be true or false, got '\(text)'")
            }
            request.mirror = mirror
        }
        return request
    }
}
