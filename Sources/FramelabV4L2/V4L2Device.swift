import CV4L2
import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// An open V4L2 device, through libv4l2 (which also applies its per-camera quirks).
///
/// Every call is one thin wrapper that throws `V4L2CallError` with errno. Closed on deinit.
public final class V4L2Device {
    public let path: String
    public let fd: Int32
    private var isOpen = true

    /// Opens `path` read-write and non-blocking (frames are awaited with poll).
    public init(path: String) throws(V4L2CallError) {
        self.path = path
        let fd = fl_v4l2_open(path)
        guard fd >= 0 else { throw V4L2CallError(path: path, call: "open", code: errno) }
        self.fd = fd
    }

    deinit { close() }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        _ = fl_v4l2_close(fd)
    }

    /// Runs one ioctl on `value` (a videodev2 struct), throwing with errno on failure.
    public func ioctl<T>(_ request: fl_v4l2_request, _ name: String, _ value: inout T) throws(V4L2CallError) {
        let result = withUnsafeMutablePointer(to: &value) { fl_v4l2_ioctl(fd, request, $0) }
        if result < 0 { throw V4L2CallError(path: path, call: name, code: errno) }
    }

    /// Like `ioctl`, but nil when the driver answers EINVAL (the end of an enumeration).
    public func enumerate<T>(_ request: fl_v4l2_request, _ name: String, _ value: inout T) throws(V4L2CallError) -> Bool {
        let result = withUnsafeMutablePointer(to: &value) { fl_v4l2_ioctl(fd, request, $0) }
        if result == 0 { return true }
        let code = errno
        if code == EINVAL || code == ENOTTY { return false }
        throw V4L2CallError(path: path, call: name, code: code)
    }

    /// What the driver says it is and can do.
    public func capabilities() throws(V4L2CallError) -> V4L2Capabilities {
        var cap = v4l2_capability()
        try ioctl(FL_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &cap)
        return V4L2Capabilities(cap)
    }

    /// Waits for a frame: `.ready`, `.timedOut` or `.hungUp` (device error or gone).
    public func waitForFrame(timeoutMilliseconds: Int) throws(V4L2CallError) -> WaitResult {
        var hangup: Int32 = 0
        let result = fl_v4l2_wait(fd, Int32(timeoutMilliseconds), &hangup)
        if result < 0 { throw V4L2CallError(path: path, call: "poll", code: errno) }
        if result == 0 { return .timedOut }
        return hangup != 0 ? .hungUp : .ready
    }

    public enum WaitResult: Sendable { case ready, timedOut, hungUp }
}

/// VIDIOC_QUERYCAP's answer, as Swift values.
public struct V4L2Capabilities: Sendable, Codable, Equatable {
    public let driver: String
    public let card: String
    public let busInfo: String
    public let version: String
    /// The capabilities of this device node (device_caps when the driver reports it).
    public let deviceCaps: UInt32

    init(_ cap: v4l2_capability) {
        driver = Self.text(cap.driver)
        card = Self.text(cap.card)
        busInfo = Self.text(cap.bus_info)
        version = "\(cap.version >> 16).\((cap.version >> 8) & 0xFF).\(cap.version & 0xFF)"
        deviceCaps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
    }

    public var canCapture: Bool { deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
    public var canStream: Bool { deviceCaps & UInt32(V4L2_CAP_STREAMING) != 0 }

    /// What the node is, in words, for "not a capture device" messages.
    public var kindDescription: String {
        var kinds: [String] = []
        if deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 { kinds.append("video capture") }
        if deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 { kinds.append("multi-planar capture") }
        if deviceCaps & UInt32(V4L2_CAP_VIDEO_OUTPUT) != 0 { kinds.append("video output") }
        if deviceCaps & UInt32(V4L2_CAP_META_CAPTURE) != 0 { kinds.append("metadata capture") }
        if deviceCaps & UInt32(V4L2_CAP_VIDEO_M2M) != 0 { kinds.append("memory-to-memory") }
        if deviceCaps & UInt32(V4L2_CAP_RADIO) != 0 { kinds.append("radio") }
        return kinds.isEmpty ? "no known kind" : kinds.joined(separator: ", ")
    }

    /// A fixed-size C char array (a tuple in Swift) as a String, up to its first NUL.
    static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
