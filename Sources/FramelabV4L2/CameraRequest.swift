/// What a user asked of a camera; every field left nil is the driver's choice.
public struct CameraRequest: Sendable, Equatable {
    /// Memory-mapped buffers requested when `buffers=` is not given: enough for the
    /// driver to keep filling while one is converted and one waits.
    public static let defaultBufferCount = 4
    /// How long one wait for a frame lasts before it counts as a timeout.
    public static let defaultTimeoutMilliseconds = 2000
    /// Timeouts in a row (the stream restarted after each) before the run stops.
    public static let defaultRetries = 3
    /// Size asked for when the user names none.
    public static let defaultSize = (width: 640, height: 480)

    public var format: FourCC?
    public var width: Int?
    public var height: Int?
    public var fps: Double?
    public var buffers = CameraRequest.defaultBufferCount
    public var timeoutMilliseconds = CameraRequest.defaultTimeoutMilliseconds
    public var retries = CameraRequest.defaultRetries
    /// Clockwise rotation applied after conversion: 0, 90, 180 or 270.
    public var orientation = 0
    /// Mirror left-right (after rotation), like a front camera's preview.
    public var mirror = false

    public init() {}

    /// "1280x720@30 yuyv", with "any …" for what was left to the driver.
    public var summary: String {
        let size = switch (width, height) {
        case let (w?, h?): "\(w)x\(h)"
        case let (w?, nil): "width \(w)"
        case let (nil, h?): "height \(h)"
        case (nil, nil): "any size"
        }
        return "\(size)@\(fps.map(formatRate) ?? "any rate") \(format?.userName ?? "any format")"
    }
}

/// What the driver granted after negotiation.
public struct CameraGrant: Sendable, Equatable {
    public let format: FourCC
    public let width: Int
    public let height: Int
    public let fps: Double
    public let bytesPerLine: Int
    public let sizeImage: Int
    public let buffers: Int

    public var summary: String { "\(width)x\(height)@\(formatRate(fps)) \(format.userName)" }
}
