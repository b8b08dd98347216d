import CFramelabPlugin

/// An image the host lends for one call: format, size, stride and pixels in host memory.
/// Valid only during the call it was passed to.
public struct PluginImage {
    public let format: PluginPixelFormat
    public let width: Int
    public let height: Int
    public let stride: Int
    private let data: UnsafeMutableRawPointer

    init?(_ image: fl_plugin_image) {
        guard let format = PluginPixelFormat(rawValue: image.format), let data = image.data else { return nil }
        self.format = format
        width = Int(image.width)
        height = Int(image.height)
        stride = Int(image.stride)
        self.data = data
    }

    /// Calls `body` with each row in turn as `width * channels` samples of `T`
    /// (UInt8 for 8-bit formats, Float for grayF32). Do not let the buffer escape.
    public func withRows<T>(as type: T.Type, _ body: (Int, UnsafeMutableBufferPointer<T>) throws -> Void) rethrows {
        let samples = width * format.bytesPerPixel / MemoryLayout<T>.size
        for y in 0..<height {
            let row = (data + y * stride).bindMemory(to: T.self, capacity: samples)
            try body(y, UnsafeMutableBufferPointer(start: row, count: samples))
        }
    }

    /// Calls `body` with row `y` of `self` and of `other` (same size), for per-pixel maps.
    public func withRows<T>(as type: T.Type, and other: PluginImage,
                            _ body: (Int, UnsafeMutableBufferPointer<T>, UnsafeMutableBufferPointer<T>) throws -> Void) rethrows {
        let a = width * format.bytesPerPixel / MemoryLayout<T>.size
        let b = other.width * other.format.bytesPerPixel / MemoryLayout<T>.size
        for y in 0..<min(height, other.height) {
            let r1 = (data + y * stride).bindMemory(to: T.self, capacity: a)
            let r2 = (other.data + y * other.stride).bindMemory(to: T.self, capacity: b)
            try body(y, UnsafeMutableBufferPointer(start: r1, count: a), UnsafeMutableBufferPointer(start: r2, count: b))
        }
    }
}

/// A detection a detector plugin reports: a box in pixels, a score, optional landmarks.
public struct PluginDetection: Sendable {
    public var x, y, width, height: Double
    public var score: Double
    public var eyes: (left: (x: Double, y: Double), right: (x: Double, y: Double))?
    public var mouth: (x: Double, y: Double)?

    public init(x: Double, y: Double, width: Double, height: Double, score: Double,
                eyes: (left: (x: Double, y: Double), right: (x: Double, y: Double))? = nil,
                mouth: (x: Double, y: Double)? = nil) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.score = score
        self.eyes = eyes; self.mouth = mouth
    }
}
