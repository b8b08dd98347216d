import FramelabCore
import FramelabRuns
import Foundation

/// How `run` and `report` print a `RunSummary`.
enum RunSummaryText {
    /// The lines `framelab run` prints when the run ends.
    static func afterRun(_ s: RunSummary, failureReasons: [String]) -> String {
        var lines = [String(format: "%d frames processed, %d dropped, %d failed, %.1f fps (policy %@)",
                            s.processed, s.dropped, s.failed, s.fps, s.policy)]
        if !s.stages.isEmpty {
            lines.append("stage".padding(toLength: 16, withPad: " ", startingAt: 0) + " frames   p50 ms   p95 ms   max ms")
            for stage in s.stages {
                lines.append(stage.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                             + String(format: " %6d %8.2f %8.2f %8.2f", stage.frames, stage.p50_ms, stage.p95_ms, stage.max_ms))
            }
        }
        for reason in failureReasons { lines.append("failed: \(reason)") }
        if s.failed > failureReasons.count { lines.append("… and \(s.failed - failureReasons.count) more failed frames") }
        return lines.joined(separator: "\n")
    }

    /// One run's table in `framelab report`.
    static func report(_ run: RunSummary) -> String {
        var lines = [
            "run \(run.id)  source \(run.source)  policy \(run.policy)  status \(run.status)",
            "  \(run.processed) processed, \(run.dropped) dropped, \(run.failed) failed",
            String(format: "  latency (arrival to last stage done) p50 %.2f ms, p95 %.2f ms, max %.2f ms; queue wait p50 %.2f ms",
                   run.latency_p50_ms, run.latency_p95_ms, run.latency_max_ms, run.queue_wait_p50_ms),
        ]
        let budgets = FrameBudget.rates.map { String(format: ">%.1fms", FrameBudget.milliseconds(fps: $0)) }
        lines.append("  " + "stage".padding(toLength: 16, withPad: " ", startingAt: 0)
                     + " frames   p50 ms   p95 ms   p99 ms   max ms  mean fps "
                     + budgets.map { $0.leftPadded(9) }.joined())
        for s in run.stages {
            let shares = FrameBudget.rates.map { String(format: "%8.1f%%", 100 * (s.over_budget[String($0)] ?? 0)) }
            lines.append("  " + s.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                         + String(format: " %6d %8.2f %8.2f %8.2f %8.2f %9.1f ", s.frames, s.p50_ms, s.p95_ms,
                                  s.p99_ms, s.max_ms, s.mean_fps)
                         + shares.joined())
        }
        return lines.joined(separator: "\n")
    }
}
