import ArgumentParser

/// `framelab bench`: benchmarks that compare paths side by side in one process.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks that compare CPU paths side by side in one process.",
        subcommands: [BenchFiltersCommand.self, BenchDetectorsCommand.self, BenchPipelineCommand.self])
}
