import FramelabCore

/// One in-memory frame handed out `count` times, as fast as the engine takes it: a source
/// that costs nothing, so a benchmark measures the stages and the engine alone. Stages
/// never write into their input, so every frame may share the same pixels.
final class RepeatedFrameSource: FrameSource {
    let spec: SourceSpec
    let isLive = false
    let nominalFPS: Double? = nil
    var expectedFrameCount: Int? { count }
    private let image: Mat
    private let count: Int
    private var position = 0

    init(image: Mat, count: Int) throws {
        self.image = image
        self.count = count
        spec = try SourceSpec(parsing: "memory:\(image.width)x\(image.height)")
    }

    func next() throws -> SourceItem? {
        guard position < count else { return nil }
        defer { position += 1 }
        return .frame(Frame(index: position, pts: 0, arrival: MonotonicClock.now(), image: image))
    }
}

/// A stage that hands the frame on untouched: what is left to time is the engine.
final class PassThroughStage: PipelineStage {
    let name: String
    let acceptedFormats = PixelFormat.allCases
    init(name: String) { self.name = name }
    func outputFormat(for input: PixelFormat) -> PixelFormat? { input }
    func process(_ frame: Frame) throws -> Frame { frame }
    func replica() throws -> any PipelineStage { self }
}
