import Foundation

/// The plugin workers this process started (`--isolate`), found by the kernel's process
/// table rather than through the plugin host, so a command asked to stop can end one that
/// hangs without waiting for the plugin's timeout: the frame it holds then fails as a
/// crashed plugin would, and the command ends.
enum IsolatedWorkers {
    /// The worker executable's name (`framelab-plugin-worker`, next to `framelab`).
    static let executableName = "framelab-plugin-worker"

    /// SIGKILLs every child of this process running the worker executable. The plugin
    /// host reaps it and reports the frame in progress as failed.
    static func killStuck() {
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  parentPID(stat) == me else { continue }
            let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
            guard (exe as NSString).lastPathComponent == executableName else { continue }
            printToStandardError("framelab: killing plugin worker \(pid), which did not end its frame after the stop request")
            kill(pid, SIGKILL)
        }
    }

    /// The fourth field of /proc/PID/stat, after the command name in parentheses (which
    /// may itself contain spaces and parentheses).
    private static func parentPID(_ stat: String) -> pid_t? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }
}
