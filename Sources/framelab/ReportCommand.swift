import ArgumentParser
import FramelabCore
import FramelabRuns
import Foundation

/// `framelab report`: per-stage latency statistics and frame-budget shares of recorded runs.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise recorded runs: per stage and end to end p50/p95/p99/max ms and share over the frame budgets; eval scores; bench cases.",
        discussion: """
            Budgets: 41.7 ms (24 fps), 33.3 ms (30 fps), 16.7 ms (60 fps). Percentiles interpolate \
            linearly between ranks, like numpy. Each run is shown as its kind: a pipeline run (kind "run") \
            its stages, an end-to-end row and which budgets its p95 end-to-end latency fits; an eval or merged \
            run also each detector's AP, precision, recall, F1 and ms per image, and its official protocol \
            scores (eval --protocol: WIDER's ap_easy, ap_medium, ap_hard); a bench run its cases (min \
            and median ms) and goal lines. fps is processed frames per second of the run. Latency is a \
            processed frame's arrival to the end of its last stage (queue wait plus processing). \
            Reads schema version 2 and version 1 files. --json prints {"runs": [{"id", "kind", "fps", \
            "stages": [{"name", "frames", "p50_ms", "p95_ms", "p99_ms", "max_ms", "capacity_fps", "over_budget": \
            {"24", "30", "60"}}], "end_to_end", "fits_fps", "dropped", "latency_p50_ms", ..., and "detectors", \
            "protocol_scores" ({"detector", "protocol", "metric", "value"}: eval --protocol), "bench_cases", "goals" \
            where the kind has them}]}; a stage's capacity_fps is 1000 / its mean ms.
            """)

    @Argument(help: "An HDF5 file written by `framelab run --out`.", completion: ShellCompletion.recordings)
    var file: String

    @Option(name: .customLong("run"), help: "Report only this run (default: every run in the file).")
    var runID: String?

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let runs: [RunSummary]
        do {
            try RecordingVetting.vet(file)
            runs = try RunSummary.read(path: file, runID: runID)
        } catch {
            throw failure(error)
        }
        if json {
            try printJSON(["runs": runs])
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
