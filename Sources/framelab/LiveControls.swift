import Dispatch
import FramelabCore
import FramelabPipeline
import Foundation

/// Signals a live run listens to: SIGUSR1 switches a live source (a camera) to its next device,
/// SIGUSR2 asks for a snapshot. Handlers only set flags; the run's threads act on them.
final class LiveControls: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let lock = Lock()
    private var snapshotWanted = false
    private var live: (any LiveSource)?

    /// Installed first thing in a run, so an early signal is not fatal (their default action).
    init() {
        add(SIGUSR1) { [weak self] in self?.switchCamera() }
        add(SIGUSR2) { [weak self] in self?.requestSnapshot() }
    }

    /// The live source SIGUSR1 switches, once it is open.
    func attach(_ live: (any LiveSource)?) {
        lock.withLock { self.live = live }
    }

    private func switchCamera() {
        let live = lock.withLock { self.live }
        guard let live else {
            printToStandardError("framelab: SIGUSR1 ignored: the source is not a camera")
            return
        }
        printToStandardError("framelab: SIGUSR1: switching to the next camera")
        live.requestSwitch()
    }

    private func add(_ sig: Int32, _ action: @escaping @Sendable () -> Void) {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
        sources.append(source)
    }

    func requestSnapshot() {
        lock.withLock { snapshotWanted = true }
    }

    /// True once per request.
    func takeSnapshotRequest() -> Bool {
        lock.withLock {
            defer { snapshotWanted = false }
            return snapshotWanted
        }
    }

    func cancel() {
        for s in sources { s.cancel() }
        signal(SIGUSR1, SIG_DFL)
        signal(SIGUSR2, SIG_DFL)
    }
}
