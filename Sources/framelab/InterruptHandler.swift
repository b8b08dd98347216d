import Dispatch
import FramelabCore
import Foundation

/// Turns SIGINT and SIGTERM into a call to `action`, once, instead of ending the process,
/// so a stopped run still finishes its HDF5 records.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let signalled = Lock()
    private var first: Int32?

    /// The first signal that arrived, if any: a run it stopped exits with 128 + that number
    /// (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the signal killed.
    var received: Int32? { signalled.withLock { first } }

    init(_ action: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in
                signalled.withLock { if first == nil { first = sig } }
                printToStandardError("\nframelab: stopping after the frame in progress (signal \(sig))")
                action()
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for s in sources { s.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
