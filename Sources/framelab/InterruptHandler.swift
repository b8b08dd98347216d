import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call to `action`, once, instead of ending the process,
/// so a stopped run still finishes its HDF5 records.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(_ action: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
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
