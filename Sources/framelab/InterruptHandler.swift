import Dispatch
import FramelabCore
import Foundation

/// Turns SIGINT, SIGTERM, SIGHUP and SIGQUIT into an orderly stop instead of the default
/// death, so a stopped command still finishes its HDF5 record.
///
/// The first signal calls `stop` (the command ends after the frame or image in progress,
/// marks its record `interrupted` and exits 128 + the signal: 130, 143, 129, 131, as a
/// shell reports a process the signal killed). A second signal means "now": `abandon`
/// writes what is queued and marks the record `interrupted`, and the process exits at
/// once with the first signal's code, even when a stage hangs.
final class InterruptHandler: @unchecked Sendable {
    /// The signals a command stops on (SIGHUP: the terminal closed; SIGQUIT: Ctrl-\).
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Seconds after the first signal before `stuck` is called (a stage that does not end).
    static let graceSeconds = 3.0

    private var sources: [DispatchSourceSignal] = []
    private let signalled = Lock()
    private var first: Int32?
    private var count = 0
    private var atOnce = false
    private var cancelled = false

    /// The first signal that arrived, if any: a command it stopped exits with 128 + it.
    var received: Int32? { signalled.withLock { first } }

    /// `stop` asks the command to end after the work in progress; `abandon` (second signal)
    /// makes the record readable before the immediate exit; `stuck` is called when the
    /// command is still running `graceSeconds` after the first signal (e.g. to kill a hung
    /// plugin worker, whose frame then fails and lets the run end).
    /// `inProgress` names what the command finishes before it stops (said on the first signal).
    init(stop: @escaping @Sendable () -> Void, abandon: @escaping @Sendable () -> Void = {},
         stuck: @escaping @Sendable () -> Void = {}, inProgress: String = "the frame in progress") {
        for sig in Self.signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in
                let (firstSignal, n, once) = signalled.withLock { () -> (Int32, Int, Bool) in
                    if first == nil { first = sig }
                    count += 1
                    return (first!, count, atOnce)
                }
                if n == 1 {
                    printToStandardError("\nframelab: stopping after \(inProgress) (\(signalName(sig)); "
                                         + "send it again to stop at once)")
                    stop()
                    DispatchQueue.global().asyncAfter(deadline: .now() + Self.graceSeconds) { [self] in
                        if !signalled.withLock({ cancelled }) { stuck() }
                    }
                } else if n == 2 {
                    printToStandardError("\nframelab: stopping now (\(signalName(sig))\(once ? "" : " again"))")
                    abandon()
                    fflush(nil)
                    // No atexit handlers or static destructors: other threads may still be
                    // inside a stage; the record was closed by `abandon`.
                    _exit(128 + firstSignal)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// For commands with no frame-by-frame stop (benchmarks, merge): the first signal
    /// already calls `abandon` and exits with 128 + the signal.
    static func exitingAtOnce(abandon: @escaping @Sendable () -> Void = {}) -> InterruptHandler {
        InterruptHandler(stop: {}, abandon: abandon).immediate()
    }

    private func immediate() -> InterruptHandler {
        // Counting from 1 makes the first signal take the "second signal" path.
        signalled.withLock { count = 1; atOnce = true }
        return self
    }

    func cancel() {
        signalled.withLock { cancelled = true }
        for s in sources { s.cancel() }
        for sig in Self.signals { signal(sig, SIG_DFL) }
    }
}
