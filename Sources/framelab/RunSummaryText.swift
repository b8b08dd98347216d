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

    /// One run in `framelab report`: its kind's table (pipeline stages, detector scores, bench cases).
    static func report(_ run: RunSummary) -> String {
        var lines = ["\(run.kind) \(run.id)  source \(run.source)\(run.policy.isEmpty ? "" : "  policy " + run.policy)  status \(run.status)"]
        if let cases = run.bench_cases {
            lines += benchTable(cases)
        } else {
            lines.append(String(format: "  %d processed, %d dropped, %d failed, %.1f fps", run.processed, run.dropped, run.failed, run.fps))
            lines += stageTable(run)
            if let detectors = run.detectors { lines += detectorTable(detectors) }
            if let scores = run.protocol_scores { lines += protocolTable(scores) }
        }
        lines += (run.goals ?? []).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// Per stage and end to end: percentiles and the share of frames over each budget, and the verdict.
    private static func stageTable(_ run: RunSummary) -> [String] {
        guard !run.stages.isEmpty else { return [] }
        let budgets = FrameBudget.rates.map { String(format: ">%.1fms", FrameBudget.milliseconds(fps: $0)) }
        let width = max(16, run.stages.map(\.name.count).max() ?? 0)
        var lines = ["  " + "stage".padding(toLength: width, withPad: " ", startingAt: 0)
                     + " frames   p50 ms   p95 ms   p99 ms   max ms " + budgets.map { $0.leftPadded(9) }.joined()]
        for s in run.stages + (run.end_to_end.map { [$0] } ?? []) {
            // A stage with no timed frame (saved predictions, a detector that failed everywhere) has no times.
            if s.frames == 0 {
                lines.append("  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0) + String(format: " %6d", 0)
                             + String(repeating: milliseconds(nil), count: 4) + " "
                             + String(repeating: "—".leftPadded(9), count: FrameBudget.rates.count))
                continue
            }
            let shares = FrameBudget.rates.map { String(format: "%8.1f%%", 100 * (s.over_budget[String($0)] ?? 0)) }
            lines.append("  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0)
                         + String(format: " %6d %8.2f %8.2f %8.2f %8.2f ", s.frames, s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms)
                         + shares.joined())
        }
        // An eval's frames are images, not a stream: no frame budget to fit.
        if let e = run.end_to_end, e.frames > 0, run.kind != "eval" {
            let fits = run.fits_fps
            lines.append(String(format: "  end-to-end p95 %.2f ms (queue wait p50 %.2f ms): ", e.p95_ms, run.queue_wait_p50_ms)
                         + (fits.isEmpty ? "fits none of the 24/30/60 fps budgets"
                            : "fits \(fits.map(String.init).joined(separator: ", ")) fps"))
        }
        return lines
    }

    private static func detectorTable(_ rows: [RunSummary.DetectorLine]) -> [String] {
        let width = max(16, rows.map(\.name.count).max() ?? 0)
        return ["  " + "detector".padding(toLength: width, withPad: " ", startingAt: 0)
                + "      AP  precision  recall      F1   p50 ms   p95 ms  images  failed"]
            + rows.map { r in
                "  " + r.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + String(format: " %7.3f %10.3f %7.3f %7.3f", r.ap, r.precision, r.recall, r.f1)
                    + milliseconds(r.p50_ms) + milliseconds(r.p95_ms) + String(format: " %7d %7d", r.images, r.failed)
            }
    }

    /// Official protocol scores: one line per detector and protocol, its metrics side by side.
    private static func protocolTable(_ rows: [RunSummary.ProtocolScoreLine]) -> [String] {
        var order: [String] = [], metrics: [String: [String]] = [:]
        for r in rows {
            let key = "\(r.detector)  [\(r.protocol)]"
            if metrics[key] == nil { order.append(key) }
            metrics[key, default: []].append(r.metric + " " + (r.value.map { EvalProtocols.metricText(r.metric, $0) } ?? "n/a"))
        }
        return order.map { "  " + $0 + "  " + (metrics[$0] ?? []).joined(separator: "  ") }
    }

    /// A time column: " %8.2f", or "—" right-aligned when there is no time (saved predictions).
    static func milliseconds(_ ms: Double?) -> String {
        guard let ms, ms.isFinite else { return " " + "—".leftPadded(8) }
        return String(format: " %8.2f", ms)
    }

    private static func benchTable(_ cases: [RunSummary.BenchCase]) -> [String] {
        ["  filter        path          size        threads  isa       runs   min ms  median ms"]
            + cases.map { c in
                "  " + c.filter.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + c.path.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + c.size.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(c.threads).leftPadded(7) + "  " + c.isa.padding(toLength: 8, withPad: " ", startingAt: 0)
                    + String(c.runs).leftPadded(6) + String(format: " %8.3f %10.3f", c.min_ms, c.median_ms)
            }
    }
}
