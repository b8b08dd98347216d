import FramelabCore
import FramelabRecording

/// What `framelab report` says about one recorded run.
struct RunStatistics: Encodable {
    struct Stage: Encodable {
        let name: String
        let frames: Int
        let p50_ms: Double
        let p95_ms: Double
        let p99_ms: Double
        let max_ms: Double
        /// Frames per second the stage alone sustains: 1000 / mean ms.
        let mean_fps: Double
        /// Share (0…1) of frames whose duration exceeds each budget, keyed by fps ("24", "30", "60").
        let over_budget: [String: Double]
    }

    let id: String
    let source: String
    let policy: String
    let status: String
    let frames: Int
    let processed: Int
    let dropped: Int
    let failed: Int
    let stages: [Stage]
    /// Arrival to end of the last stage, per processed frame (queue wait + processing), ms.
    let latency_p50_ms: Double
    let latency_p95_ms: Double
    let latency_max_ms: Double

    init(_ run: RunData) {
        id = run.id
        func text(_ key: String) -> String {
            if case .string(let s)? = run.attributes[key] { return s }
            return ""
        }
        source = text("source")
        policy = text("policy")
        status = text("status")
        frames = run.frames.count
        dropped = run.frames.filter(\.dropped).count
        failed = run.frames.filter(\.failed).count
        processed = frames - dropped - failed
        var perStage = Array(repeating: [Double](), count: run.stageNames.count)
        for t in run.timings where t.stage >= 0 && Int(t.stage) < perStage.count {
            perStage[Int(t.stage)].append(Double(t.durationNs) / 1e6)
        }
        var finished: [Int64: Int64] = [:]  // frame → end of its last stage
        for t in run.timings { finished[t.frame] = max(finished[t.frame] ?? 0, t.startNs + t.durationNs) }
        let latency = SampleStatistics(run.frames.compactMap { f -> Double? in
            guard !f.dropped, !f.failed, let end = finished[f.index], end >= f.arrivalNs else { return nil }
            return Double(end - f.arrivalNs) / 1e6
        })
        latency_p50_ms = latency.percentile(50)
        latency_p95_ms = latency.percentile(95)
        latency_max_ms = latency.max
        stages = run.stageNames.enumerated().map { i, name in
            let s = SampleStatistics(perStage[i])
            var over: [String: Double] = [:]
            for fps in FrameBudget.rates { over[String(fps)] = s.shareAbove(FrameBudget.milliseconds(fps: fps)) }
            return Stage(name: name, frames: s.count, p50_ms: s.percentile(50), p95_ms: s.percentile(95),
                         p99_ms: s.percentile(99), max_ms: s.max, mean_fps: s.mean > 0 ? 1000 / s.mean : 0,
                         over_budget: over)
        }
    }
}
