import FramelabCore
import FramelabCV
import FramelabPipeline

/// `image:PATH[?repeat=N]`: one decoded image, delivered N times.
public final class ImageSource: FrameSource {
    public static let scheme = SourceScheme(
        "image", usage: "image:PATH[?repeat=N] — one image file, delivered N times (default 1)"
    ) { try ImageSource(spec: $0) }

    public let spec: SourceSpec
    public let isLive = false
    public let nominalFPS: Double? = nil
    public var expectedFrameCount: Int? { repeatCount }
    let image: Mat
    let repeatCount: Int
    private var delivered = 0

    public init(spec: SourceSpec) throws {
        try spec.checkOptions(["repeat"])
        self.spec = spec
        if let text = spec.options["repeat"] {
            guard let n = Int(text), n >= 1 else {
                throw FramelabError(.badInput, "source '\(spec)': repeat must be a whole number >= 1, got '\(text)'")
            }
            repeatCount = n
        } else {
            repeatCount = 1
        }
        image = try ImageCodec.read(spec.target)
    }

    public func next() throws -> SourceItem? {
        guard delivered < repeatCount else { return nil }
        defer { delivered += 1 }
        return .frame(Frame(index: delivered, pts: 0, arrival: MonotonicClock.now(), image: image, origin: spec.target))
    }
}
