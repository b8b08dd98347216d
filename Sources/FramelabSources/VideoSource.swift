import FramelabCore
import FramelabCV
import FramelabPipeline

/// `video:PATH[?pace=fast|realtime]`: a decoded video file.
///
/// `fast` (default) delivers frames as quickly as they decode; `realtime` releases each
/// at its presentation time from the start of the run, like a player pulling frames at
/// display rate. A file that ends before the frame count its container declares is an
/// error (truncated), after the frames it did hold have been delivered.
public final class VideoSource: FrameSource {
    public static let scheme = SourceScheme(
        "video", usage: "video:PATH[?pace=fast|realtime] — a video file, as fast as possible or at its frame rate"
    ) { try VideoSource(spec: $0) }

    public enum Pace: String, Sendable { case fast, realtime }

    public let spec: SourceSpec
    public let pace: Pace
    public var isLive: Bool { false }
    public var nominalFPS: Double? { reader.fps > 0 ? reader.fps : nil }
    public var expectedFrameCount: Int? { reader.declaredFrameCount }
    private let reader: VideoReader
    private var index = 0
    private var startTime: UInt64?

    public init(spec: SourceSpec) throws {
        try spec.checkOptions(["pace"])
        self.spec = spec
        let paceText = spec.options["pace"] ?? "fast"
        guard let pace = Pace(rawValue: paceText) else {
            throw FramelabError(.badInput, "source '\(spec)': pace must be fast or realtime, got '\(paceText)'")
        }
        self.pace = pace
        reader = try VideoReader(path: spec.target)
    }

    public func next() throws -> SourceItem? {
        guard let (image, ptsMs) = try reader.next() else {
            if let declared = reader.declaredFrameCount, index < declared {
                throw FramelabError(.corrupt,
                    "video '\(spec.target)': ended after \(index) of \(declared) frames (truncated or corrupt)")
            }
            return nil
        }
        // The container's time when it is usable, else the index at the nominal rate, else
        // 0: a file that is no real video (a PNG through FFmpeg's image2) reports nonsense.
        let fromFile = ptsMs > 0 || index == 0 ? Int64(checked: ptsMs * 1_000_000).flatMap { $0 >= 0 ? $0 : nil } : nil
        let fallback = nominalFPS.flatMap { Int64(checked: Double(index) * 1e9 / $0) } ?? 0
        let pts = fromFile ?? fallback
        if pace == .realtime {
            let start = startTime ?? MonotonicClock.now()
            startTime = start
            MonotonicClock.sleep(until: start + UInt64(max(0, pts)))
        }
        defer { index += 1 }
        return .frame(Frame(index: index, pts: pts, arrival: MonotonicClock.now(), image: image, origin: spec.target))
    }
}
