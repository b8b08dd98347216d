#if canImport(Glibc)
import Glibc
#endif

/// A failed V4L2 call: which call, on which device, and errno.
public struct V4L2CallError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let call: String
    public let code: Int32

    public init(path: String, call: String, code: Int32) {
        self.path = path
        self.call = call
        self.code = code
    }

    /// The errno name (ENODEV, EBUSY, …) for messages.
    public var errnoName: String {
        switch code {
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case EBUSY: "EBUSY"
        case ENODEV: "ENODEV"
        case ENOENT: "ENOENT"
        case ENXIO: "ENXIO"
        case EINVAL: "EINVAL"
        case ENOTTY: "ENOTTY"
        case EIO: "EIO"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EPIPE: "EPIPE"
        default: "errno \(code)"
        }
    }

    public var description: String {
        "\(call) on '\(path)' failed: \(String(cString: strerror(code))) (\(errnoName))"
    }

    /// True when the device is gone (unplugged) rather than refusing one request.
    public var isDisconnect: Bool { code == ENODEV || code == ENXIO || code == EPIPE || code == EIO }
}
