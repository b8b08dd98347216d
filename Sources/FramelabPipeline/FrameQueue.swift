import FramelabCore

/// The hand-off between the source thread and the stage thread.
///
/// Under `keep-all` it is a bounded FIFO: `push` waits while it is full. Under
/// `drop-late` it holds one frame: a push replaces a frame still waiting, and the
/// replaced frame is reported as dropped with the next frame popped, so that every
/// record is written by the consumer thread.
final class FrameQueue: @unchecked Sendable {
    enum Item {
        case frame(Frame)
        case failure(index: Int, origin: String, reason: String)
        case event(kind: String, detail: String)
    }

    /// A dropped frame's record: its pixels are released as soon as it is replaced, so a
    /// slow consumer does not keep a backlog of images alive (live sources recycle them).
    struct DroppedFrame {
        let index: Int
        let pts: Int64
        let arrival: UInt64
    }

    /// What the consumer gets: an item and the frames dropped since the last pop.
    struct Delivery {
        var item: Item?
        var dropped: [DroppedFrame]
        /// Set when the source ended with an error.
        var sourceError: FramelabError?
    }

    private struct State {
        var items: [Item] = []
        var dropped: [DroppedFrame] = []
        var finished = false
        var cancelled = false
        var sourceError: FramelabError?
    }

    let policy: DropPolicy
    let capacity: Int
    private let state = Monitor(State())

    init(policy: DropPolicy, capacity: Int) {
        precondition(capacity >= 1, "queue capacity must be at least 1")
        self.policy = policy
        self.capacity = policy == .dropLate ? 1 : capacity
    }

    /// Adds an item; returns false when the consumer has cancelled (the source should stop).
    func push(_ item: Item) -> Bool {
        let capacity = self.capacity
        if policy == .keepAll {
            return state.wait(until: { $0.items.count < capacity || $0.cancelled }) { s in
                guard !s.cancelled else { return false }
                s.items.append(item)
                return true
            }
        }
        return state.update { s in
            guard !s.cancelled else { return false }
            // Only frames are replaced: failures and events must reach the consumer.
            if let last = s.items.last, case .frame(let stale) = last, case .frame = item {
                s.items.removeLast()
                s.dropped.append(DroppedFrame(index: stale.index, pts: stale.pts, arrival: stale.arrival))
            }
            s.items.append(item)
            return true
        }
    }

    /// Marks the end of the stream (with the error that ended it, if any).
    func finish(error: FramelabError? = nil) {
        state.update { s in
            s.finished = true
            s.sourceError = error
        }
    }

    /// Tells the source to stop; pending items are discarded.
    func cancel() {
        state.update { s in
            s.cancelled = true
            s.items.removeAll()
        }
    }

    /// Waits for the next item; `item` is nil once the stream has ended and drained.
    func pop() -> Delivery {
        state.wait(until: { !$0.items.isEmpty || $0.finished || $0.cancelled }) { s in
            let dropped = s.dropped
            s.dropped.removeAll()
            if !s.items.isEmpty, !s.cancelled {
                return Delivery(item: s.items.removeFirst(), dropped: dropped, sourceError: nil)
            }
            return Delivery(item: nil, dropped: dropped, sourceError: s.sourceError)
        }
    }
}
