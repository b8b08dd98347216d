import FramelabCore

/// The hand-off between the source thread and the stage thread.
///
/// Under `keep-all` it is a bounded FIFO: `push` waits while it is full. Under
/// `drop-late` it holds one frame: a push replaces a frame still waiting, and the
/// replaced frame is reported as dropped with the next frame popped, so that every
/// record is written by the consumer thread.
///
/// Under `drop-late` the consumer also avoids starting on a stale frame: when the waiting
/// frame is already so old that processing it would end more than two frame intervals
/// after it arrived, and the next frame is due sooner than that, `pop` waits briefly for
/// the next one (the stale frame is dropped). Without this, a stage slightly slower than
/// the frame interval gives latencies up to interval + processing time, more than two
/// intervals; with it, latency stays near the processing time.
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

    /// What the consumer gets: the items waiting (at least one unless the stream is over),
    /// in order, and the frames dropped since the last pop. Taking every waiting item at
    /// once lets a fast source refill the whole queue per wake-up instead of one frame.
    struct Delivery {
        var items: [Item]
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
        /// Arrival of the last frame pushed, and a running mean of the gap between frames.
        var lastArrival: UInt64?
        var interval: UInt64?

        /// Tracks the source's frame interval (a running mean weighted 1/8 to the newest gap).
        mutating func noteArrival(_ arrival: UInt64) {
            if let last = lastArrival, arrival > last {
                let gap = arrival - last
                interval = interval.map { ($0 * 7 + gap) / 8 } ?? gap
            }
            lastArrival = arrival
        }
    }

    /// The latency a drop-late consumer aims for, in frame intervals.
    static let latencyBudgetIntervals: UInt64 = 2

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
            if case .frame(let frame) = item { s.noteArrival(frame.arrival) }
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

    /// Waits for the next items; `items` is empty once the stream has ended and drained.
    /// `processingEstimate` (ns, drop-late only) is how long the consumer expects to spend
    /// on a frame; with it, a stale frame may be passed over for the next one (see above).
    func pop(processingEstimate: UInt64? = nil) -> Delivery {
        let waiting = state.wait(until: { !$0.items.isEmpty || $0.finished || $0.cancelled }) { s in
            freshnessDeadline(s, processingEstimate: processingEstimate)
        }
        guard let (staleIndex, deadline) = waiting else { return state.update(Self.take) }
        return state.wait(until: { s in
            s.finished || s.cancelled || Self.firstFrameIndex(s).map { $0 != staleIndex } ?? true
        }, deadline: deadline, then: Self.take)
    }

    /// When the first waiting item is a frame too stale to finish within the latency budget
    /// and a fresher one is due in time: its index and how long to wait for the next.
    private func freshnessDeadline(_ s: State, processingEstimate: UInt64?) -> (Int, UInt64)? {
        guard policy == .dropLate, !s.cancelled, !s.finished, let processing = processingEstimate,
              let interval = s.interval, case .frame(let frame)? = s.items.first else { return nil }
        let budget = Self.latencyBudgetIntervals * interval
        let age = MonotonicClock.now() &- frame.arrival
        // Waiting cannot help when processing alone overruns the budget, nor when the frame is fine.
        guard processing < budget, age + processing > budget else { return nil }
        // The next frame is due one interval after this one; a quarter interval of slack for jitter.
        return (frame.index, frame.arrival + interval + interval / 4)
    }

    private static func firstFrameIndex(_ s: State) -> Int? {
        if case .frame(let frame)? = s.items.first { return frame.index }
        return nil
    }

    private static func take(_ s: inout State) -> Delivery {
        let dropped = s.dropped
        s.dropped.removeAll()
        if !s.items.isEmpty, !s.cancelled {
            defer { s.items.removeAll(keepingCapacity: true) }
            return Delivery(items: s.items, dropped: dropped, sourceError: nil)
        }
        return Delivery(items: [], dropped: dropped, sourceError: s.sourceError)
    }
}
