/// A value stored as an HDF5 attribute on a run (or read back from one).
public enum AttributeValue: Sendable, Equatable, CustomStringConvertible {
    /// A variable-length UTF-8 string attribute.
    case string(String)
    /// A 64-bit signed integer attribute.
    case int(Int64)
    /// A 64-bit float attribute.
    case double(Double)
    /// A one-dimensional array of variable-length UTF-8 strings.
    case strings([String])

    public var description: String {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .strings(let a): return "[" + a.joined(separator: ", ") + "]"
        }
    }
}

/// One frame the source delivered (or the pipeline dropped): a row of `frames`.
public struct FrameRecord: Sendable, Equatable {
    /// The frame's index in the source's stream (counting dropped frames).
    public var index: Int64
    /// Presentation time in nanoseconds from the start of the stream.
    public var ptsNs: Int64
    /// Arrival time on the monotonic clock, in nanoseconds.
    public var arrivalNs: Int64
    /// The pipeline dropped the frame (it was not processed).
    public var dropped: Bool
    /// Processing the frame failed (see `failures`).
    public var failed: Bool
    /// Arrival to the start of its first stage, in nanoseconds; -1 if not processed (or not known).
    public var queueWaitNs: Int64
    /// Arrival to the end of its last stage, in nanoseconds; -1 if not processed (or not known).
    public var latencyNs: Int64

    public init(index: Int64, ptsNs: Int64, arrivalNs: Int64, dropped: Bool, failed: Bool, queueWaitNs: Int64 = -1,
                latencyNs: Int64 = -1) {
        self.index = index
        self.ptsNs = ptsNs
        self.arrivalNs = arrivalNs
        self.dropped = dropped
        self.failed = failed
        self.queueWaitNs = queueWaitNs
        self.latencyNs = latencyNs
    }
}

/// How long one stage took on one frame: a row of `timings`.
public struct StageTimingRecord: Sendable, Equatable {
    /// The frame index (as in `FrameRecord.index`).
    public var frame: Int64
    /// The stage's position in the run's `stage_names` (stored by name: docs/hdf5-schema.md).
    public var stage: Int32
    /// When the stage started, on the monotonic clock, in nanoseconds.
    public var startNs: Int64
    /// How long it ran, in nanoseconds.
    public var durationNs: Int64

    public init(frame: Int64, stage: Int32, startNs: Int64, durationNs: Int64) {
        self.frame = frame
        self.stage = stage
        self.startNs = startNs
        self.durationNs = durationNs
    }
}

/// A frame that could not be read or processed: a row of `failures`.
public struct FailureRecord: Sendable, Equatable {
    /// The frame index (as in `FrameRecord.index`).
    public var frame: Int64
    /// The stage that failed (its position in `stage_names`), or -1 for the source.
    public var stage: Int32
    /// The one-line error message.
    public var reason: String

    /// The `stage` value that means the source failed rather than a stage.
    public static let sourceStage: Int32 = -1

    public init(frame: Int64, stage: Int32, reason: String) {
        self.frame = frame
        self.stage = stage
        self.reason = reason
    }
}

/// Something worth noting during a run (a parameter change, a source reconnect, ...):
/// a row of `events`.
public struct EventRecord: Sendable, Equatable {
    /// The frame index it relates to (the last frame seen when it happened).
    public var frame: Int64
    /// When it happened, on the monotonic clock, in nanoseconds.
    public var timeNs: Int64
    /// A short machine-friendly kind, e.g. "param", "source", "note".
    public var kind: String
    /// Free text.
    public var detail: String

    public init(frame: Int64, timeNs: Int64, kind: String, detail: String) {
        self.frame = frame
        self.timeNs = timeNs
        self.kind = kind
        self.detail = detail
    }
}
