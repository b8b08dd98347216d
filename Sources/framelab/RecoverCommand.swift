import ArgumentParser
import FramelabCore
import FramelabRecording
import Foundation

/// `framelab recover FILE`: repairs what a killed writer left so plain HDF5 readers open
/// the file again.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Make a recording a killed or crashed framelab left behind readable by plain h5py, pandas and h5ls.",
        discussion: """
            A writer killed in the middle of a run (kill -9, a crash, a power cut) leaves the file marked \
            "open for writing": h5py then opens it only with swmr=True, and pandas and h5ls refuse it. \
            recover clears that mark (what `h5clear -s` does), moves the file's allocation mark to its end, \
            and marks runs left `running` as `interrupted`; every frame flushed before the kill stays, and rows \
            the writer counted but never wrote (all zero, at the end of a table) are cut. \
            The next framelab writer does the same on its own. A file another framelab is writing is refused. \
            Exit status 0 when the file is (now) readable, 1 when it cannot be repaired.
            """)

    @Argument(help: "The HDF5 recording to repair in place.", completion: ShellCompletion.recordings)
    var file: String

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let report: RecordingRecovery.Report
        do {
            report = try RecordingRecovery.recover(path: file)
        } catch {
            throw failure(error)
        }
        if json {
            try printJSON(RecoverJSON(file: file, cleared_write_marks: report.clearedWriteMarks,
                                      interrupted_runs: report.interruptedRuns, unwritten_rows_cut: report.unwrittenRowsCut))
            return
        }
        if report.nothingToDo {
            print("recover: \(file): nothing to do (no write marks, no run left running)")
            return
        }
        if report.clearedWriteMarks { print("recover: \(file): cleared the \"open for writing\" marks a killed writer left") }
        for id in report.interruptedRuns {
            print("recover: \(file): run '\(id)' was left running; now marked interrupted")
            if let cut = report.unwrittenRowsCut[id] {
                let tables = cut.sorted { $0.key < $1.key }.map { "\($0.value) from '\($0.key)'" }.joined(separator: ", ")
                print("recover: \(file): run '\(id)': cut rows counted but never written (all zero): \(tables)")
            }
        }
        print("recover: \(file): plain h5py, pandas and h5ls open it again")
    }
}

/// `recover --json`: {"file", "cleared_write_marks", "interrupted_runs", "unwritten_rows_cut"}.
private struct RecoverJSON: Encodable {
    let file: String
    let cleared_write_marks: Bool
    let interrupted_runs: [String]
    let unwritten_rows_cut: [String: [String: Int]]
}
