import FramelabCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a recording a user handed in once in a child process (`framelab vet-recording`)
/// before the command reads it itself. libhdf5 1.10 crashes (SIGSEGV) or loops forever on
/// some damaged files, in places no check of the file can reach beforehand (a global heap
/// collection has no checksum; docs/reliability.md, "Damaged HDF5 files"): in the child
/// that is one line naming the file instead of a crashed or hung command.
enum RecordingVetting {
    /// The child is given this long, plus a second per 20 MB of file, before it is killed.
    static let baseTimeoutSeconds = 30.0
    /// `FRAMELAB_VET_TIMEOUT` (seconds) replaces the whole limit; tests use a short one.
    static let timeoutVariable = "FRAMELAB_VET_TIMEOUT"

    /// Throws a one-line `FramelabError` when reading `path` crashes or hangs the child.
    /// A path that does not exist, or that the child refuses with an ordinary error, is
    /// left to the command, which then reports it in its own words.
    static func vet(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        let timeout = ProcessInfo.processInfo.environment[timeoutVariable].flatMap(Double.init)
            .flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            ?? baseTimeoutSeconds + Double(info.st_size) / 20e6
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["vet-recording", path]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        do {
            try child.run()
        } catch {
            return  // cannot start a child: read in process, as before
        }
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning && Date() < deadline { usleep(20_000) }
        if child.isRunning {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            throw FramelabError(.badInput, "HDF5 file '\(path)' looks damaged: reading it did not end in "
                                + "\(Int(timeout.rounded())) s (libhdf5 loops on some damaged files); nothing was read from it")
        }
        if child.terminationReason == .uncaughtSignal {
            throw FramelabError(.badInput, "HDF5 file '\(path)' is damaged: reading it crashed libhdf5 "
                                + "(\(signalName(child.terminationStatus))); nothing was read from it")
        }
    }
}
