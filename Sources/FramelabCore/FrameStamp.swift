/// Where a frame sits in its stream, without its pixels: what a stage that cares about
/// time (a plugin element of ABI 2, through fl_plugin_frame) is told with each image.
public struct FrameStamp: Sendable, Equatable {
    /// Position in the source's stream, from 0, counting frames the pipeline may drop.
    public var index: Int
    /// Presentation time in nanoseconds from the start of the stream.
    public var pts: Int64
    /// When the frame arrived from its source, on the monotonic clock (nanoseconds).
    public var arrival: UInt64

    public init(index: Int, pts: Int64, arrival: UInt64) {
        self.index = index
        self.pts = pts
        self.arrival = arrival
    }
}

extension Frame {
    public var stamp: FrameStamp { FrameStamp(index: index, pts: pts, arrival: arrival) }
}
