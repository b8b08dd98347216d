import Foundation
import FramelabCore
import FramelabRecording

/// A run named on the command line as `FILE.h5[:RUN]`: a file and, after the last colon,
/// a run id. Without one, the file's newest run. A path that exists as given is a file even
/// when it contains a colon.
public struct RunReference: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let runID: String?

    public init(path: String, runID: String?) {
        self.path = path
        self.runID = runID
    }

    public init(parsing text: String) {
        if FileManager.default.fileExists(atPath: text) || !text.contains(":") {
            self.init(path: text, runID: nil)
        } else {
            let colon = text.lastIndex(of: ":")!
            let id = String(text[text.index(after: colon)...])
            self.init(path: String(text[..<colon]), runID: id.isEmpty ? nil : id)
        }
    }

    public var description: String { runID.map { "\(path):\($0)" } ?? path }

    /// The run's id: the one named, or the file's newest run. Errors are one line naming
    /// the file: missing, not a regular file, no runs, no such run.
    public func resolvedRunID() throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FramelabError(.io, "'\(path)': no such file")
        }
        guard !isFolder.boolValue else { throw FramelabError(.badInput, "'\(path)' is a folder, not an HDF5 file") }
        let ids = try RecordingReader.runIDs(path: path)
        guard let newest = ids.last else { throw FramelabError(.badInput, "'\(path)' holds no runs") }
        guard let runID else { return newest }
        guard ids.contains(runID) else {
            throw FramelabError(.badInput, "'\(path)' has no run '\(runID)' (runs: \(ids.joined(separator: ", ")))")
        }
        return runID
    }
}
