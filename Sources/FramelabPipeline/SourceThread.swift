import FramelabCore
import Foundation

/// The thread that reads the source into the frame queue. `join()` waits for it to end,
/// so a run never leaves it behind touching a source its caller has released.
final class SourceThread: @unchecked Sendable {
    private let done = Monitor(false)
    /// Touched only by the source thread until it finishes.
    private let source: any FrameSource
    private let queue: FrameQueue

    init(source: any FrameSource, queue: FrameQueue) {
        self.source = source
        self.queue = queue
        let thread = Thread { [self] in
            Self.produce(source: self.source, into: self.queue)
            done.update { $0 = true }
        }
        thread.name = "framelab-source"
        thread.start()
    }

    /// Waits until the source thread has returned (cancel the queue first, or it runs to
    /// the end of the source).
    func join() { done.wait(until: { $0 }) { _ in } }

    private static func produce(source: any FrameSource, into queue: FrameQueue) {
        do {
            while let item = try source.next() {
                let accepted: Bool
                switch item {
                case .frame(let frame): accepted = queue.push(.frame(frame))
                case .failure(let index, let origin, let reason):
                    accepted = queue.push(.failure(index: index, origin: origin, reason: reason))
                case .event(let kind, let detail):
                    accepted = queue.push(.event(kind: kind, detail: detail))
                }
                if !accepted { return }
            }
            queue.finish()
        } catch let error as FramelabError {
            queue.finish(error: error)
        } catch {
            queue.finish(error: FramelabError(.io, "source '\(source.spec)': \(error)"))
        }
    }
}
