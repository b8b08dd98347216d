import FramelabCore

/// What the pipeline reports, always from the thread that called `Pipeline.run`, in
/// frame order whatever the number of workers.
public enum PipelineEvent {
    /// A frame left the pipeline: processed (possibly failed), or dropped unprocessed.
    case frame(FrameOutcome)
    /// One stage's timing for one frame, monotonic nanoseconds.
    case timing(frame: Int, stage: Int, start: UInt64, duration: UInt64)
    /// A frame failed; `stage` is -1 when the source could not produce it.
    case failure(frame: Int, stage: Int, reason: String)
    /// A processed frame's final image (the image stays valid while it is held).
    case output(Frame)
    /// Something happened to the source or an output (device switched, snapshot saved, …)
    /// at monotonic `time`; `frame` is the last frame index seen then (-1 before any).
    case sourceEvent(kind: String, detail: String, frame: Int, time: UInt64)
}

/// The record of one frame's fate.
public struct FrameOutcome: Sendable {
    public var index: Int
    public var pts: Int64
    public var arrival: UInt64
    public var dropped: Bool
    public var failed: Bool
    /// When the first stage started (monotonic ns); 0 for dropped frames and source failures.
    /// `started - arrival` is the time the frame waited in the queue.
    public var started: UInt64
    /// When the last stage finished (monotonic ns); 0 for dropped frames and source failures.
    /// `finished - arrival` is the frame's end-to-end latency.
    public var finished: UInt64
    /// What the source and the stages attached to the frame (detections, ground truth, …).
    public var annotations: [any FrameAnnotation]

    public init(index: Int, pts: Int64, arrival: UInt64, dropped: Bool, failed: Bool, started: UInt64 = 0,
                finished: UInt64 = 0, annotations: [any FrameAnnotation] = []) {
        self.index = index
        self.pts = pts
        self.arrival = arrival
        self.dropped = dropped
        self.failed = failed
        self.started = started
        self.finished = finished
        self.annotations = annotations
    }

    /// Time spent waiting between arrival and the first stage (ns), for processed frames.
    public var queueWait: UInt64? { started > 0 ? started &- arrival : nil }
    /// Arrival to the end of the last stage (ns), for processed frames.
    public var latency: UInt64? { finished > 0 ? finished &- arrival : nil }
}
