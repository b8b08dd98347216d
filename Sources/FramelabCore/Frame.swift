/// One frame as it travels from a source through the pipeline.
public struct Frame: Sendable {
    /// Position in the source's stream, from 0, counting frames the pipeline may drop.
    public var index: Int
    /// Presentation time in nanoseconds from the start of the stream.
    public var pts: Int64
    /// When the frame arrived from its source, on the monotonic clock (nanoseconds).
    public var arrival: UInt64
    public var image: Mat
    /// Where it came from (a file path for file sources), for error messages and records.
    public var origin: String?
    /// Typed results attached by the source and the stages (see `FrameAnnotation`).
    public var annotations: [any FrameAnnotation] = []

    public init(index: Int, pts: Int64, arrival: UInt64, image: Mat, origin: String? = nil) {
        self.index = index
        self.pts = pts
        self.arrival = arrival
        self.image = image
        self.origin = origin
    }
}
