import FramelabCore
import FramelabPipeline
import Foundation

/// Running counts and per-stage durations of the current run, for progress and the summary.
struct RunTally {
    var processed = 0
    var dropped = 0
    var failed = 0
    var firstArrival: UInt64?
    var lastFinish: UInt64 = 0
    var stageMilliseconds: [[Double]]
    var failureReasons: [String] = []

    init(stageCount: Int) {
        stageMilliseconds = Array(repeating: [], count: stageCount)
    }

    mutating func add(_ event: PipelineEvent) {
        switch event {
        case .frame(let f):
            if f.dropped { dropped += 1; return }
            if f.failed { failed += 1 } else { processed += 1 }
            firstArrival = firstArrival ?? f.arrival
            lastFinish = max(lastFinish, f.finished)
        case .timing(_, let stage, _, let duration):
            stageMilliseconds[stage].append(Double(duration) / 1e6)
        case .failure(_, _, let reason):
            if failureReasons.count < 5 { failureReasons.append(reason) }
        case .output, .sourceEvent:
            break
        }
    }

    /// Processed frames per second of wall time since the first frame arrived.
    var fps: Double {
        guard let first = firstArrival, lastFinish > first, processed > 1 else { return 0 }
        return Double(processed) / (Double(lastFinish - first) / 1e9)
    }

    func summary(stageNames: [String], policy: DropPolicy) -> String {
        var lines = [String(format: "%d frames processed, %d dropped, %d failed, %.1f fps (policy %@)",
                            processed, dropped, failed, fps, policy.rawValue)]
        if !stageNames.isEmpty {
            lines.append("stage".padding(toLength: 16, withPad: " ", startingAt: 0)
                         + " frames   p50 ms   p95 ms   max ms")
            for (i, name) in stageNames.enumerated() {
                let s = SampleStatistics(stageMilliseconds[i])
                lines.append(name.padding(toLength: 16, withPad: " ", startingAt: 0)
                             + String(format: " %6d %8.2f %8.2f %8.2f", s.count, s.percentile(50), s.percentile(95), s.max))
            }
        }
        for reason in failureReasons { lines.append("failed: \(reason)") }
        if failed > failureReasons.count { lines.append("… and \(failed - failureReasons.count) more failed frames") }
        return lines.joined(separator: "\n")
    }
}
