import FramelabRuns
import Foundation

/// How `framelab compare` prints a `RunComparison`.
enum CompareText {
    static func render(_ c: RunComparison) -> String {
        var lines = [side("A", c.a), side("B", c.b)]
        let level = Int((c.confidence * 100).rounded())
        if !c.stages.isEmpty {
            lines.append("")
            lines.append("Timings, ms per frame: medians, B − A with its \(level)% bootstrap interval (\(c.resamples) resamples, "
                         + "seed \(c.seed)), B/A, Mann–Whitney p (two-sided)")
            let width = max(12, c.stages.map { stageLabel($0).count }.max() ?? 0)
            lines.append("  " + "stage".padding(toLength: width, withPad: " ", startingAt: 0)
                         + "  A median  B median     B − A   " + "\(level)% interval".padding(toLength: 24, withPad: " ", startingAt: 0)
                         + "   B/A        p")
            for s in c.stages {
                lines.append("  " + stageLabel(s).padding(toLength: width, withPad: " ", startingAt: 0)
                             + String(format: " %9.3f %9.3f %+9.3f", s.a_median_ms, s.b_median_ms, s.difference_ms)
                             + "   " + interval(s.interval_ms, "%+.3f").padding(toLength: 24, withPad: " ", startingAt: 0)
                             + (s.ratio.map { String(format: " %7.2fx", $0) } ?? "        —") + " " + pValue(s.p).leftPadded(8)
                             + "  " + verdict(s))
            }
        }
        if !c.untimed.isEmpty { lines.append("  not timed in both runs: " + c.untimed.joined(separator: ", ")) }
        if !c.only_in_a.isEmpty { lines.append("  only in A: " + c.only_in_a.joined(separator: ", ")) }
        if !c.only_in_b.isEmpty { lines.append("  only in B: " + c.only_in_b.joined(separator: ", ")) }
        if let images = c.images {
            lines.append("")
            lines.append("AP over the \(images) images both runs evaluated: B − A with its \(level)% paired bootstrap interval "
                         + "(images resampled, the same for A and B)")
            let width = max(12, c.detectors.map { detectorLabel($0).count }.max() ?? 0)
            lines.append("  " + "detector".padding(toLength: width, withPad: " ", startingAt: 0)
                         + "    A AP    B AP    B − A   \(level)% interval")
            for d in c.detectors {
                lines.append("  " + detectorLabel(d).padding(toLength: width, withPad: " ", startingAt: 0)
                             + String(format: " %7.3f %7.3f %+8.3f", d.a_ap, d.b_ap, d.difference)
                             + "   " + interval(d.interval, "%+.3f").padding(toLength: 20, withPad: " ", startingAt: 0)
                             + verdict(d))
            }
            if c.detectors.isEmpty { lines.append("  no detector in common") }
        }
        if let reason = c.detectors_not_compared {
            lines.append("")
            lines.append("AP not compared: " + reason)
        }
        return lines.joined(separator: "\n")
    }

    private static func side(_ label: String, _ s: RunComparison.Side) -> String {
        "\(label): \(s.file):\(s.run) (\(s.kind), \(s.frames) frames; \(s.stages.isEmpty ? "no stages" : s.stages.joined(separator: ", ")))"
    }

    private static func stageLabel(_ s: RunComparison.StageDifference) -> String {
        s.a_stage == s.b_stage ? s.a_stage : "\(s.a_stage) → \(s.b_stage)"
    }

    private static func detectorLabel(_ d: RunComparison.DetectorDifference) -> String {
        d.a_detector == d.b_detector ? d.a_detector : "\(d.a_detector) → \(d.b_detector)"
    }

    private static func interval(_ bounds: [Double], _ format: String) -> String {
        "[" + String(format: format, bounds[0]) + ", " + String(format: format, bounds[1]) + "]"
    }

    private static func pValue(_ p: Double) -> String {
        p < 1e-4 ? "<0.0001" : String(format: "%.4f", p)
    }

    private static func verdict(_ d: RunComparison.DetectorDifference) -> String {
        if d.interval[0] > 0 { return "B better" }
        if d.interval[1] < 0 { return "B worse" }
        return d.interval == [0, 0] ? "same on every resample" : "no clear difference"
    }

    /// Slower or faster only when the interval excludes 0 and the test agrees at 5%.
    private static func verdict(_ s: RunComparison.StageDifference) -> String {
        guard s.p < 0.05 else { return "no clear difference" }
        if s.interval_ms[0] > 0 { return "B slower" }
        if s.interval_ms[1] < 0 { return "B faster" }
        return "no clear difference in medians"
    }
}
