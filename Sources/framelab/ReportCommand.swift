import ArgumentParser
import FramelabCore
import FramelabRecording
import Foundation

/// `framelab report`: per-stage latency statistics and frame-budget shares of recorded runs.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise recorded runs: per stage p50/p95/p99/max ms, fps and share over the frame budgets.",
        discussion: """
            Budgets: 41.7 ms (24 fps), 33.3 ms (30 fps), 16.7 ms (60 fps). Percentiles interpolate \
            linearly between ranks, like numpy. --json prints {"runs": [{"id", "stages": [{"name", \
            "frames", "p50_ms", "p95_ms", "p99_ms", "max_ms", "mean_fps", "over_budget": {"24", "30", \
            "60"}}], "dropped", "latency_p50_ms", "latency_p95_ms", "latency_max_ms", ...}]}. Latency is a \
            processed frame's arrival to the end of its last stage (queue wait plus processing).
            """)

    @Argument(help: "An HDF5 file written by `framelab run --out`.")
    var file: String

    @Option(name: .customLong("run"), help: "Report only this run (default: every run in the file).")
    var runID: String?

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let runs: [RunStatistics]
        do {
            let ids = try RecordingReader.runIDs(path: file)
            if let runID, !ids.contains(runID) {
                throw FramelabError(.badInput, "'\(file)' has no run '\(runID)' (runs: \(ids.joined(separator: ", ")))")
            }
            runs = try (runID.map { [$0] } ?? ids).map { RunStatistics(try RecordingReader.readRun(path: file, id: $0)) }
        } catch {
            throw failure(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(["runs": runs])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(runs.map(Self.table).joined(separator: "\n\n"))
        }
    }

    static func table(_ run: RunStatistics) -> String {
        var lines = [
            "run \(run.id)  source \(run.source)  policy \(run.policy)  status \(run.status)",
            "  \(run.processed) processed, \(run.dropped) dropped, \(run.failed) failed",
            String(format: "  latency (arrival to last stage done) p50 %.2f ms, p95 %.2f ms, max %.2f ms",
                   run.latency_p50_ms, run.latency_p95_ms, run.latency_max_ms),
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

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
