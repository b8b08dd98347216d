import FramelabCore

/// Takes the source's items off the queue for the engine: reports dropped frames and
/// source failures and events as stream items, applies the frame-rate cap, and checks
/// each new input format against the stages before the first frame of it is processed.
/// Used by one thread at a time (the caller's, or the dispatcher's).
final class FrameIntake: @unchecked Sendable {
    enum Step {
        /// A frame to process.
        case frame(Frame)
        /// Something to deliver as it is, in stream order.
        case item(StreamItem)
        /// The stream is over; the error says why it ended early.
        case end(Error?)
    }

    private let queue: FrameQueue
    private let stages: [any PipelineStage]
    private let minimumFrameInterval: UInt64?
    private var negotiated = Set<PixelFormat>()
    private var lastAcceptedArrival: UInt64?
    /// The index of the last frame taken (-1 before any): source events refer to it.
    private var lastIndex = -1

    init(queue: FrameQueue, stages: [any PipelineStage], minimumFrameInterval: UInt64?) {
        self.queue = queue
        self.stages = stages
        self.minimumFrameInterval = minimumFrameInterval
    }

    /// What the next pop from the queue yields, in stream order: frames dropped while
    /// waiting, then each item taken (`.end` comes last, once). Waits for the source when
    /// nothing is queued.
    func pull(processingEstimate: UInt64?) -> [Step] {
        let delivery = queue.pop(processingEstimate: processingEstimate)
        var steps: [Step] = delivery.dropped.map { .item(.dropped($0)) }
        guard !delivery.items.isEmpty else {
            steps.append(.end(delivery.sourceError))
            return steps
        }
        for item in delivery.items {
            if let end = take(item, into: &steps) {
                steps.append(.end(end))
                break
            }
        }
        return steps
    }

    /// Appends the step for one queued item; returns the error that must end the run.
    private func take(_ item: FrameQueue.Item, into steps: inout [Step]) -> Error? {
        let now = MonotonicClock.now()
        switch item {
        case .failure(let index, let origin, let reason):
            steps.append(.item(.sourceFailure(index: index, origin: origin, reason: reason, time: now)))
        case .event(let kind, let detail):
            steps.append(.item(.sourceEvent(kind: kind, detail: detail, frame: lastIndex, time: now)))
        case .frame(let frame):
            lastIndex = frame.index
            if let interval = minimumFrameInterval, let last = lastAcceptedArrival,
               frame.arrival &- last < interval &- interval / 20 {
                // 5% slack so a source at exactly the cap is not thinned by jitter.
                steps.append(.item(.dropped(.init(index: frame.index, pts: frame.pts, arrival: frame.arrival))))
                return nil
            }
            lastAcceptedArrival = frame.arrival
            if !negotiated.contains(frame.image.format) {
                do {
                    try StageChain.negotiate(stages, input: frame.image.format)
                } catch {
                    return error
                }
                negotiated.insert(frame.image.format)
            }
            steps.append(.frame(frame))
        }
        return nil
    }
}
