import ArgumentParser
import FramelabCore
import FramelabCV
import FramelabFilters
import FramelabSources
import Foundation

@main
struct Framelab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "framelab",
        abstract: "A vision research workbench: run frames through filters, time every stage, record to HDF5.",
        discussion: """
            Sources: \(SourceRegistry.builtIns.schemes.map(\.synopsis).joined(separator: ", ")) (`framelab run --help` \
            describes each). Face detectors: `framelab detectors`; accuracy on datasets: `framelab eval`. \
            Runs are recorded into HDF5 files (one file holds many runs); see docs/hdf5-schema.md. \
            Every command that prints results takes --json (one JSON document on standard output); \
            TAB completion: `framelab completions install`; the manual page: scripts/man-page.sh.
            """,
        version: FramelabVersionInfo.text,
        subcommands: [RunCommand.self, ReportCommand.self, FiltersCommand.self, PluginsCommand.self,
                      DevicesCommand.self, EvalCommand.self, DetectorsCommand.self, DatasetCommand.self,
                      BenchCommand.self, MergeCommand.self, SubmitCommand.self, RecoverCommand.self,
                      ExportCommand.self, CompareCommand.self, CompletionsCommand.self, VetRecordingCommand.self]
    )

    /// Process-wide settings belong to the program, not to a library as it loads: they are
    /// made here, before any command runs. `FRAMELAB_ISA` is checked here too: an unknown
    /// kernel level, or one this CPU cannot run, is a one-line error (exit 1), never a crash
    /// in the first kernel.
    static func main() {
        VideoLogs.quiet()
        LibraryMessages.captureIsEnabled = true
        LibraryThreads.limitToOne()
        // A file size limit (`ulimit -f`) then fails the write (EFBIG) like a full disk,
        // which the recorder reports in one line, instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        if case .failure(let error) = KernelLevel.chosen {
            exit(withError: failure(error))
        }
        main(nil)
    }
}
