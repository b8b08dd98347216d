import ArgumentParser
import FramelabRecording

/// `framelab vet-recording FILE` (hidden): reads everything in FILE and exits 0, or 1 with
/// the error. `RecordingVetting` runs it in a child process, where a crash or hang inside
/// libhdf5 cannot take the command down with it.
struct VetRecordingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vet-recording",
        abstract: "Read every run of an HDF5 recording once (used in a child process before reading files handed in).",
        shouldDisplay: false)

    @Argument(help: "The HDF5 recording.")
    var file: String

    func run() throws {
        do {
            try RecordingReader.readEverything(path: file)
        } catch {
            throw failure(error)
        }
    }
}
