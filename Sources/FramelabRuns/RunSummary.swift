import FramelabCore
import FramelabRecording

/// What a run's timings say: per-stage percentiles and frame-budget shares, end-to-end
/// latency and queue wait. The same numbers live at the end of `framelab run` and from
/// the file in `framelab report` (both come from a `RunTally`).
public struct RunSummary: Encodable, Sendable {
    public struct Stage: Encodable, Sendable {
        public let name: String
        public let frames: Int
        public let p50_ms: Double
        public let p95_ms: Double
        public let p99_ms: Double
        public let max_ms: Double
        /// Frames per second the stage alone could sustain: 1000 / mean ms (not the run's rate: see
        /// `fps`). Called mean_fps before 2026-11-26, a name readers took for the run's rate.
        public let capacity_fps: Double
        /// Share (0…1) of frames whose duration exceeds each budget, keyed by fps ("24", "30", "60").
        public let over_budget: [String: Double]

        init(_ name: String, _ s: SampleStatistics) {
            self.name = name
            frames = s.count
            p50_ms = s.percentile(50)
            p95_ms = s.percentile(95)
            p99_ms = s.percentile(99)
            max_ms = s.max
            capacity_fps = s.mean > 0 ? 1000 / s.mean : 0
            var over: [String: Double] = [:]
            for fps in FrameBudget.rates { over[String(fps)] = s.shareAbove(FrameBudget.milliseconds(fps: fps)) }
            over_budget = over
        }
    }

    public let id: String
    public let source: String
    public let policy: String
    public let status: String
    public let frames: Int
    public let processed: Int
    public let dropped: Int
    public let failed: Int
    /// Processed frames per second of wall time, first arrival to last finish.
    public let fps: Double
    public let stages: [Stage]
    /// Arrival to the end of the last stage, per processed frame (queue wait + processing), ms.
    public let latency_p50_ms: Double
    public let latency_p95_ms: Double
    public let latency_max_ms: Double
    /// Arrival to the start of the first stage, per processed frame, ms.
    public let queue_wait_p50_ms: Double
    public let queue_wait_p95_ms: Double
    /// Each processed frame's end-to-end latency as one more row: percentiles and budget shares.
    public let end_to_end: Stage?
    /// The frame rates (of 24, 30, 60) whose budget the p95 end-to-end latency fits.
    public let fits_fps: [Int]
    /// "run", "eval", "bench filters" (version-1 pipeline runs have none: "run").
    public internal(set) var kind = "run"
    /// Eval and merged runs: each detector's scores.
    public internal(set) var detectors: [DetectorLine]?
    /// Eval runs scored with official protocols (`eval --protocol`): each detector's metrics.
    public internal(set) var protocol_scores: [ProtocolScoreLine]?
    /// Bench runs: each case's min and median, and the goal lines.
    public internal(set) var bench_cases: [BenchCase]?
    public internal(set) var goals: [String]?

    /// The summary of a recorded run.
    public init(_ run: RunData) {
        let tally = RunTally(recorded: run)
        func text(_ key: String) -> String {
            if case .string(let s)? = run.attributes[key] { return s }
            return ""
        }
        self = tally.summary(id: run.id, source: text("source"), policy: text("policy"), status: text("status"),
                             stageNames: run.stageNames)
        kind = text("kind").isEmpty ? "run" : text("kind")
    }

    init(id: String, source: String, policy: String, status: String, frames: Int, processed: Int, dropped: Int,
         failed: Int, fps: Double, stages: [Stage], latency_p50_ms: Double, latency_p95_ms: Double,
         latency_max_ms: Double, queue_wait_p50_ms: Double, queue_wait_p95_ms: Double, end_to_end: Stage?) {
        self.id = id; self.source = source; self.policy = policy; self.status = status; self.frames = frames
        self.processed = processed; self.dropped = dropped; self.failed = failed; self.fps = fps; self.stages = stages
        self.latency_p50_ms = latency_p50_ms; self.latency_p95_ms = latency_p95_ms; self.latency_max_ms = latency_max_ms
        self.queue_wait_p50_ms = queue_wait_p50_ms; self.queue_wait_p95_ms = queue_wait_p95_ms
        self.end_to_end = end_to_end
        fits_fps = end_to_end.map { e in
            e.frames > 0 ? FrameBudget.rates.filter { e.p95_ms <= FrameBudget.milliseconds(fps: $0) } : []
        } ?? []
    }

    /// Every run of a recording file (or the one named), summarised.
    public static func read(path: String, runID: String? = nil) throws -> [RunSummary] {
        let ids = try RecordingReader.runIDs(path: path)
        if let runID, !ids.contains(runID) {
            throw FramelabError(.badInput, "'\(path)' has no run '\(runID)' (runs: \(ids.joined(separator: ", ")))")
        }
        return try (runID.map { [$0] } ?? ids).map { id in
            let run = try RecordingReader.readRun(path: path, id: id)
            var summary = RunSummary(run)
            try summary.addKindDetails(run, path: path)
            return summary
        }
    }
}
