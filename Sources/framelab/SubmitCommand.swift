import ArgumentParser

/// `framelab submit`: hand work to a cluster scheduler through its own tools.
struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Submit a sharded evaluation to a cluster scheduler (see docs/scale-out.md).",
        subcommands: [SubmitSlurmCommand.self])
}
