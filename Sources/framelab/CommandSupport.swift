import ArgumentParser
import FramelabCore
import FramelabRecording
import FramelabRuns
import Foundation

/// Prints a one-line error to standard error and returns the exit code to throw.
func failure(_ error: Error, code: Int32 = 1) -> ExitCode {
    let message = (error as? FramelabError)?.message ?? String(describing: error)
    LibraryMessages.writeToStandardError("framelab: error: \(message)\n")
    return ExitCode(code)
}

/// A bad flag value: one line naming the flag, exit code 64 (EX_USAGE), no usage dump.
func usageError(_ message: String) -> ExitCode {
    failure(FramelabError(.badInput, message), code: 64)
}

/// Writes a line to standard error (progress, warnings); never into a library-message capture.
func printToStandardError(_ text: String, terminator: String = "\n") {
    LibraryMessages.writeToStandardError(text + terminator)
}

/// Version text: the package version and, when the binary sits in a git checkout, its commit.
enum FramelabVersionInfo {
    static var text: String {
        if let commit = gitCommit { return "\(FramelabVersion.string) (\(commit.prefix(12)))" }
        return FramelabVersion.string
    }

    /// The commit of the checkout the executable was built in, found by walking up from
    /// the executable to a `.git` folder and reading HEAD (no git binary needed).
    static let gitCommit: String? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let git = dir.appendingPathComponent(".git")
            if let head = try? String(contentsOf: git.appendingPathComponent("HEAD"), encoding: .utf8) {
                let trimmed = head.trimmingCharacters(in: .whitespacesAndNewlines)
                guard trimmed.hasPrefix("ref: ") else { return trimmed.isEmpty ? nil : trimmed }
                let ref = String(trimmed.dropFirst(5))
                if let hash = try? String(contentsOf: git.appendingPathComponent(ref), encoding: .utf8) {
                    return hash.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                let packed = (try? String(contentsOf: git.appendingPathComponent("packed-refs"), encoding: .utf8)) ?? ""
                return packed.split(separator: "\n").first { $0.hasSuffix(" " + ref) }.map { String($0.prefix(40)) }
            }
            dir.deleteLastPathComponent()
        }
        return nil
    }()
}

/// The command line as one string, with arguments quoted where a shell would need it.
var quotedCommandLine: String {
    CommandLine.arguments.map { arg in
        arg.isEmpty || arg.contains(where: { " \t\"'$\\*?&;|<>()".contains($0) })
            ? "'" + arg.replacingOccurrences(of: "'", with: "'\\''") + "'" : arg
    }.joined(separator: " ")
}

/// What every run this command records says about where it came from (`RunContext`).
var commandContext: [String: AttributeValue] {
    RunContext.attributes(commandLine: quotedCommandLine, gitCommit: FramelabVersionInfo.gitCommit)
}
