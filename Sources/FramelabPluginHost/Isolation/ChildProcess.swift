#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// A child process started with posix_spawn, with chosen descriptors as its 0, 1 and 3.
final class ChildProcess {
    let pid: pid_t
    private var exited: String?
    /// Temporary descriptors for the hand-over start here, above any target number.
    static let parkingFloor: Int32 = 64

    /// Starts `executable` with `arguments`; `descriptors` maps child fd → parent fd.
    init(executable: String, arguments: [String], descriptors: [(child: Int32, parent: Int32)],
         environment extra: [String] = []) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Park each parent descriptor above every target first: dup2(a, 3) followed by
        // dup2(3, 4) would otherwise hand the child the wrong file when a parent fd is itself
        // a target number.
        let parked = descriptors.map { fcntl($0.parent, F_DUPFD_CLOEXEC, Self.parkingFloor) }
        defer { parked.forEach { if $0 >= 0 { close($0) } } }
        if let bad = parked.firstIndex(where: { $0 < 0 }) {
            throw FramelabError(.io, "cannot pass descriptor \(descriptors[bad].parent) to the plugin worker: \(String(cString: strerror(errno)))")
        }
        for (i, (child, _)) in descriptors.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, parked[i], child)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var env: [UnsafeMutablePointer<CChar>?] = extra.map { strdup($0) }
        var inherited = environ
        while let entry = inherited.pointee {
            env.append(strdup(entry))
            inherited += 1
        }
        env.append(nil)
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        // Not while a library-message capture has fd 2: the worker would inherit it.
        let rc = LibraryMessages.outsideCapture { posix_spawn(&pid, executable, &actions, nil, argv, env) }
        guard rc == 0 else {
            throw FramelabError(.io, "cannot start the plugin worker \(executable): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
    }

    /// Kills the child (SIGKILL) if it still runs, and reaps it.
    func kill() {
        guard exited == nil else { return }
        _ = Glibc.kill(pid, SIGKILL)
        _ = wait()
    }

    /// Waits for the child to end and describes how it ended ("crashed with signal 11 (SIGSEGV)").
    func wait() -> String {
        if let exited { return exited }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text: String
        if status & 0x7f == 0 {
            text = "exited with status \((status >> 8) & 0xff)"
        } else {
            let signal = status & 0x7f
            text = "crashed with signal \(signal) (\(signalName(signal)))"
        }
        exited = text
        return text
    }

    deinit { kill() }
}
