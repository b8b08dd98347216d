import ArgumentParser
import FramelabCore
import FramelabRuns
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
        let runs: [RunSummary]
        do {
            runs = try RunSummary.read(path: file, runID: runID)
        } catch {
            throw failure(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(["runs": runs])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(runs.map(RunSummaryText.report).joined(separator: "\n\n"))
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
