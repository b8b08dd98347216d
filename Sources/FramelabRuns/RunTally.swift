import FramelabCore
import FramelabDetection
import FramelabPipeline
import FramelabRecording

/// Running counts and per-stage durations of a run: fed live with the engine's events
/// (progress line, end-of-run summary) or with a recorded run's records (`framelab
/// report`), and summarised the same way either way (`RunSummary`).
public struct RunTally: Sendable {
    public private(set) var processed = 0
    public private(set) var dropped = 0
    public private(set) var failed = 0
    private var firstArrival: UInt64?
    private var lastFinish: UInt64 = 0
    private var stageMilliseconds: [[Double]]
    /// Arrival to the end of the last stage, and arrival to the first stage, per processed frame.
    private var latencyMilliseconds: [Double] = []
    private var queueWaitMilliseconds: [Double] = []
    /// The first few failure reasons, for the summary.
    public private(set) var failureReasons: [String] = []
    /// Faces found per detector stage (live runs).
    public private(set) var facesFound: [Int: Int] = [:]

    public static let keptFailureReasons = 5

    public init(stageCount: Int) {
        stageMilliseconds = Array(repeating: [], count: stageCount)
    }

    /// One engine event of a live run.
    public mutating func add(_ event: PipelineEvent) {
        switch event {
        case .frame(let f):
            addFrame(dropped: f.dropped, failed: f.failed, arrival: f.arrival, started: f.started, finished: f.finished)
            for found in f.annotations.all(DetectedFaces.self) { facesFound[found.stage, default: 0] += found.faces.count }
        case .timing(_, let stage, _, let duration):
            addTiming(stage: stage, durationNs: duration)
        case .failure(_, _, let reason):
            addFailureReason(reason)
        case .output, .sourceEvent:
            break
        }
    }

    /// A frame's fate; `started`/`finished` 0 when no stage ran.
    mutating func addFrame(dropped isDropped: Bool, failed isFailed: Bool, arrival: UInt64, started: UInt64,
                           finished: UInt64) {
        if isDropped { dropped += 1; return }
        if isFailed { failed += 1 } else { processed += 1 }
        firstArrival = firstArrival ?? arrival
        lastFinish = max(lastFinish, finished)
        if !isFailed && finished >= arrival && started >= arrival && finished > 0 {
            latencyMilliseconds.append(Double(finished - arrival) / 1e6)
            queueWaitMilliseconds.append(Double(started - arrival) / 1e6)
        }
    }

    mutating func addTiming(stage: Int, durationNs: UInt64) {
        guard stageMilliseconds.indices.contains(stage) else { return }
        stageMilliseconds[stage].append(Double(durationNs) / 1e6)
    }

    mutating func addFailureReason(_ reason: String) {
        if failureReasons.count < Self.keptFailureReasons { failureReasons.append(reason) }
    }

    /// Milliseconds of each timing of stage `stage` (its position), in recording order.
    public func stageSamples(_ stage: Int) -> [Double] {
        stageMilliseconds.indices.contains(stage) ? stageMilliseconds[stage] : []
    }

    /// Each processed frame's arrival to the end of its last stage, milliseconds.
    public var latencySamples: [Double] { latencyMilliseconds }

    /// Processed frames per second of wall time since the first frame arrived.
    public var fps: Double {
        guard let first = firstArrival, lastFinish > first, processed > 1 else { return 0 }
        return Double(processed) / (Double(lastFinish - first) / 1e9)
    }

    /// The summary of what was tallied.
    public func summary(id: String, source: String, policy: String, status: String, stageNames: [String]) -> RunSummary {
        let latency = SampleStatistics(latencyMilliseconds), wait = SampleStatistics(queueWaitMilliseconds)
        return RunSummary(
            id: id, source: source, policy: policy, status: status, frames: processed + dropped + failed,
            processed: processed, dropped: dropped, failed: failed, fps: fps,
            stages: stageNames.enumerated().map { i, name in
                RunSummary.Stage(name, SampleStatistics(i < stageMilliseconds.count ? stageMilliseconds[i] : []))
            },
            latency_p50_ms: latency.percentile(50), latency_p95_ms: latency.percentile(95), latency_max_ms: latency.max,
            queue_wait_p50_ms: wait.percentile(50), queue_wait_p95_ms: wait.percentile(95),
            end_to_end: latency.count > 0 ? RunSummary.Stage("end-to-end", latency) : nil)
    }
}
