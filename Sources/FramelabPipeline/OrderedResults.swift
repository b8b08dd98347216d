import FramelabCore

/// What the engine delivers for one step of the source's stream, in stream order.
enum StreamItem {
    case processed(ProcessedFrame)
    case dropped(FrameQueue.DroppedFrame)
    case sourceFailure(index: Int, origin: String, reason: String, time: UInt64)
    case sourceEvent(kind: String, detail: String, frame: Int, time: UInt64)
}

/// Results that finish out of order (several workers, stage threads) handed to the
/// consumer in the order they were numbered: a reorder buffer.
final class OrderedResults: @unchecked Sendable {
    private struct State {
        var next = 0
        var ready: [Int: StreamItem] = [:]
        /// Numbers handed out so far; the stream is over when `ended` and all are taken.
        var issued = 0
        var ended = false
        var error: Error?
    }

    private let state = Monitor(State())

    /// The next sequence number, for an item that will be `put` later.
    func issue() -> Int {
        state.update { s in
            defer { s.issued += 1 }
            return s.issued
        }
    }

    func put(_ item: StreamItem, at sequence: Int) {
        state.update { $0.ready[sequence] = item }
    }

    /// Numbers and stores an item that is complete already (drops, source failures, events).
    func append(_ item: StreamItem) {
        state.update { s in
            s.ready[s.issued] = item
            s.issued += 1
        }
    }

    /// No more numbers will be issued; `error` ends the run once everything before it is taken.
    func end(error: Error? = nil) {
        state.update { s in
            s.ended = true
            if s.error == nil { s.error = error }
        }
    }

    /// The next item in order; nil at the end of the stream (then `error` says why it ended early).
    func take() -> StreamItem? {
        state.wait(until: { s in s.ready[s.next] != nil || (s.ended && s.next >= s.issued) }) { s in
            guard let item = s.ready.removeValue(forKey: s.next) else { return nil }
            s.next += 1
            return item
        }
    }

    var error: Error? { state.update { $0.error } }
}
