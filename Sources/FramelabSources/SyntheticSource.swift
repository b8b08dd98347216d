import FramelabCore
import FramelabCV
import FramelabPipeline

/// `synthetic:WxH@FPS`: a deterministic moving test pattern with the frame number drawn
/// in, produced on its own clock at FPS like a camera (a live source).
///
/// Frame i is always the same image: a colour pattern scrolled by i * `scrollStep` pixels
/// with "#i" written near the top-left corner.
public final class SyntheticSource: FrameSource {
    public static let scheme = SourceScheme(
        "synthetic", usage: "synthetic:WxH@FPS — a deterministic moving test pattern at FPS frames per second"
    ) { try SyntheticSource(spec: $0) }

    /// Pixels the pattern moves per frame.
    public static let scrollStep = 4
    /// The largest frame side accepted (8K).
    public static let maxSide = 8192
    /// The slowest rate accepted (a frame every 1000 s): far slower rates put frame times
    /// past what 64-bit nanoseconds hold within a few frames.
    public static let minFPS = 0.001
    /// The fastest rate accepted.
    public static let maxFPS = 1000.0

    public let spec: SourceSpec
    public let width: Int
    public let height: Int
    public let fps: Double
    public let isLive = true
    public var nominalFPS: Double? { fps }
    public let expectedFrameCount: Int? = nil
    /// Twice as wide as a frame, so any scroll offset is one memcpy per row.
    private let pattern: Mat
    private var index = 0
    private var startTime: UInt64?

    public init(spec: SourceSpec) throws {
        try spec.checkOptions([])
        self.spec = spec
        let bad = FramelabError(.badInput, "source '\(spec)': expected synthetic:WIDTHxHEIGHT@FPS, e.g. synthetic:640x480@30")
        let sizeAndRate = spec.target.split(separator: "@", omittingEmptySubsequences: false)
        guard sizeAndRate.count == 2 else { throw bad }
        let dims = sizeAndRate[0].split(separator: "x", omittingEmptySubsequences: false)
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]), let fps = Double(sizeAndRate[1]) else {
            throw bad
        }
        guard (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else {
            throw FramelabError(.badInput, "source '\(spec)': width and height must be 1…\(Self.maxSide)")
        }
        guard fps >= Self.minFPS, fps <= Self.maxFPS else {
            throw FramelabError(.badInput, "source '\(spec)': FPS must be \(Self.minFPS)…\(Int(Self.maxFPS))")
        }
        width = w
        height = h
        self.fps = fps
        pattern = Self.makePattern(width: w, height: h)
    }

    public func next() throws -> SourceItem? {
        let start = startTime ?? MonotonicClock.now()
        startTime = start
        // minFPS keeps this inside Int64 for 9 million frames (2^63 ns is 292 years).
        let pts = Int64(checked: Double(index) * 1e9 / fps) ?? .max
        MonotonicClock.sleep(until: start + UInt64(pts))
        let image = try Self.render(index: index, pattern: pattern, width: width, height: height)
        defer { index += 1 }
        return .frame(Frame(index: index, pts: pts, arrival: MonotonicClock.now(), image: image, origin: nil))
    }

    /// Frame `index` of the pattern, as a new BGRA8 image.
    public static func render(index: Int, width: Int, height: Int) throws -> Mat {
        try render(index: index, pattern: makePattern(width: width, height: height), width: width, height: height)
    }

    static func render(index: Int, pattern: Mat, width: Int, height: Int) throws -> Mat {
        let image = Mat(format: .bgra8, width: width, height: height)
        let shift = (index * scrollStep) % width
        image.copyPixels(from: pattern.view(x: shift, y: 0, width: width, height: height))
        if width >= 32 && height >= 16 {
            let scale = max(0.4, Double(min(width, height)) / 480)
            try image.drawText("#\(index)", x: width / 40 + 2, y: Int(40 * scale),
                               scale: scale, color: [255, 255, 255, 255], thickness: max(1, Int(2 * scale)))
        }
        return image
    }

    /// Colour bars whose hue runs across one frame width, repeated twice, with a
    /// vertical brightness ramp: every pixel differs from its scrolled neighbour.
    static func makePattern(width: Int, height: Int) -> Mat {
        let pattern = Mat(format: .bgra8, width: 2 * width, height: height)
        pattern.withUnsafeMutableBytes { bytes in
            let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                let row = p + y * pattern.stride
                let ramp = height > 1 ? Double(y) / Double(height - 1) : 0
                for x in 0..<(2 * width) {
                    let t = Double(x % width) / Double(width)
                    let b = 127.5 + 127.5 * sinTurn(t)
                    let g = 127.5 + 127.5 * sinTurn(t + 1.0 / 3)
                    let r = 127.5 + 127.5 * sinTurn(t + 2.0 / 3)
                    row[4 * x] = UInt8(b * (0.35 + 0.65 * ramp))
                    row[4 * x + 1] = UInt8(g * (0.35 + 0.65 * ramp))
                    row[4 * x + 2] = UInt8(r * (0.35 + 0.65 * ramp))
                    row[4 * x + 3] = 255
                }
            }
        }
        return pattern
    }

    private static func sinTurn(_ turns: Double) -> Double { sin(2 * Double.pi * turns) }
}

#if canImport(Glibc)
import Glibc
#endif
