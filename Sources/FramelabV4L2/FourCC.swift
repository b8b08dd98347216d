/// A V4L2 pixel format code: four ASCII characters packed little-endian ("YUYV", "MJPG").
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// From four characters; nil unless `code` is exactly four ASCII characters.
    public init?(_ code: String) {
        let bytes = Array(code.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    public static let yuyv = FourCC("YUYV")!
    public static let mjpeg = FourCC("MJPG")!
    public static let bgr24 = FourCC("BGR3")!

    /// The four characters, trailing spaces trimmed.
    public var description: String {
        let bytes = (0..<4).map { UInt8((rawValue >> (8 * UInt32($0))) & 0xFF) }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == " " { text.removeLast() }
        return text
    }

    /// A format as users write it after `format=`: yuyv, mjpeg (or mjpg), or any four-character code.
    public init?(userName: String) {
        switch userName.lowercased() {
        case "yuyv", "yuy2": self = .yuyv
        case "mjpeg", "mjpg": self = .mjpeg
        default:
            guard let code = FourCC(userName.uppercased()) else { return nil }
            self = code
        }
    }

    /// The name users write for it (`format=` values).
    public var userName: String {
        switch self {
        case .yuyv: "yuyv"
        case .mjpeg: "mjpeg"
        default: description.lowercased()
        }
    }
}
