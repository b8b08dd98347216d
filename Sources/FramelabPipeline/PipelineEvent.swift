import FramelabCore

/// What the pipeline reports, always from the thread that called `Pipeline.run`.
public enum PipelineEvent {
    /// A frame left the pipeline: processed (possibly failed), or dropped unprocessed.
    case frame(FrameOutcome)
    /// One stage's timing for one frame, monotonic nanoseconds.
    case timing(frame: Int, stage: Int, start: UInt64, duration: UInt64)
    /// A frame failed; `stage` is -1 when the source could not produce it.
    case failure(frame: Int, stage: Int, reason: String)
    /// A processed frame's final image (valid until the next event; clone to keep).
    case output(Frame)
    /// Something happened to the source or an output (device switched, snapshot saved, …)
    /// at monotonic `time`; `frame` is the last frame index seen then (-1 before any).
    case sourceEvent(kind: String, detail: String, frame: Int, time: UInt64)
}

/// The record of one frame's fate.
public struct FrameOutcome: Sendable, Equatable {
    public var index: Int
    public var pts: Int64
    public var arrival: UInt64
    public var dropped: Bool
    public var failed: Bool
    /// When the last stage finished (monotonic ns); 0 for dropped frames.
    public var finished: UInt64
}
