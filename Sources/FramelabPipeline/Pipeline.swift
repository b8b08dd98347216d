import FramelabCore
import Foundation

/// A source feeding timed stages through a queue, with a drop policy.
///
/// The source runs on its own thread; stages run on the thread that calls `run`, which
/// also receives every event, so observers need no locking.
public final class Pipeline: @unchecked Sendable {
    /// Frames that may wait between source and stages under `keep-all`.
    public static let defaultQueueCapacity = 4

    public let source: any FrameSource
    public let stages: [any PipelineStage]
    public let policy: DropPolicy
    /// Stop after this many frames have been processed (dropped frames do not count).
    public let maxFrames: Int?
    /// Frames arriving sooner than this after the last processed one are dropped (and
    /// recorded as dropped): the `--max-fps` cap, like AVFoundation's minFrameDuration.
    public let minimumFrameInterval: UInt64?
    private let queue: FrameQueue
    private let stopRequested = Monitor(false)

    public init(source: any FrameSource, stages: [any PipelineStage], policy: DropPolicy? = nil,
                maxFrames: Int? = nil, queueCapacity: Int = Pipeline.defaultQueueCapacity,
                maxFPS: Double? = nil) {
        self.source = source
        self.stages = stages
        self.policy = policy ?? source.defaultPolicy
        self.maxFrames = maxFrames
        minimumFrameInterval = maxFPS.map { UInt64(1e9 / $0) }
        queue = FrameQueue(policy: self.policy, capacity: queueCapacity)
    }

    /// True once `requestStop()` was called (the run ended early on request).
    public var wasStopped: Bool { stopRequested.update { $0 } }

    /// Asks a running pipeline to stop after the frame in progress (thread-safe).
    public func requestStop() {
        stopRequested.update { $0 = true }
        queue.cancel()
    }

    /// Runs to the end of the source, `maxFrames`, or `requestStop()`.
    /// Throws the error that ended the run early (a source or format error); every event
    /// before it has been delivered.
    public func run(_ onEvent: (PipelineEvent) -> Void) throws {
        // The source is touched only by this thread until it finishes.
        let producer = Thread { [self] in Self.produce(source: source, into: queue) }
        producer.name = "framelab-source"
        producer.start()
        defer { queue.cancel() }

        var processed = 0
        var formats: [PixelFormat: [PixelFormat]] = [:]  // input format → checked chain
        var lastProcessedArrival: UInt64?
        var lastIndex = -1
        // How long the stages take per frame (running mean), for drop-late's freshness check.
        var processingEstimate: UInt64?
        while maxFrames.map({ processed < $0 }) ?? true {
            let delivery = queue.pop(processingEstimate: processingEstimate)
            for frame in delivery.dropped {
                onEvent(.frame(FrameOutcome(index: frame.index, pts: frame.pts, arrival: frame.arrival,
                                            dropped: true, failed: false, finished: 0)))
            }
            guard let item = delivery.item else {
                if let error = delivery.sourceError { throw error }
                return
            }
            switch item {
            case .failure(let index, let origin, let reason):
                onEvent(.failure(frame: index, stage: -1, reason: reason.contains(origin) ? reason : "\(origin): \(reason)"))
                onEvent(.frame(FrameOutcome(index: index, pts: 0, arrival: MonotonicClock.now(),
                                            dropped: false, failed: true, finished: 0)))
            case .event(let kind, let detail):
                onEvent(.sourceEvent(kind: kind, detail: detail, frame: lastIndex, time: MonotonicClock.now()))
            case .frame(let frame):
                lastIndex = frame.index
                if let interval = minimumFrameInterval, let last = lastProcessedArrival,
                   frame.arrival &- last < interval &- interval / 20 {
                    // 5% slack so a source at exactly the cap is not thinned by jitter.
                    onEvent(.frame(FrameOutcome(index: frame.index, pts: frame.pts, arrival: frame.arrival,
                                                dropped: true, failed: false, finished: 0)))
                    continue
                }
                lastProcessedArrival = frame.arrival
                if formats[frame.image.format] == nil {
                    formats[frame.image.format] = try negotiate(frame.image.format)
                }
                let began = MonotonicClock.now()
                process(frame, onEvent)
                let took = MonotonicClock.now() &- began
                processingEstimate = processingEstimate.map { ($0 * 7 + took) / 8 } ?? took
                processed += 1
            }
        }
    }

    /// Checks that each stage accepts what the one before produces.
    private func negotiate(_ input: PixelFormat) throws -> [PixelFormat] {
        var chain = [input]
        for stage in stages {
            guard let next = stage.outputFormat(for: chain.last!) else {
                let accepted = stage.acceptedFormats.map(\.name).joined(separator: ", ")
                throw FramelabError(.unsupported,
                    "stage '\(stage.name)' does not accept \(chain.last!) images (accepts \(accepted))")
            }
            chain.append(next)
        }
        return chain
    }

    private func process(_ input: Frame, _ onEvent: (PipelineEvent) -> Void) {
        var frame = input
        var failed = false
        for (i, stage) in stages.enumerated() {
            let start = MonotonicClock.now()
            do {
                frame = try stage.process(frame)
                onEvent(.timing(frame: frame.index, stage: i, start: start, duration: MonotonicClock.now() - start))
            } catch {
                onEvent(.timing(frame: frame.index, stage: i, start: start, duration: MonotonicClock.now() - start))
                onEvent(.failure(frame: frame.index, stage: i, reason: "\(stage.name): \(error)"))
                failed = true
                break
            }
        }
        onEvent(.frame(FrameOutcome(index: frame.index, pts: frame.pts, arrival: frame.arrival,
                                    dropped: false, failed: failed, finished: MonotonicClock.now())))
        if !failed { onEvent(.output(frame)) }
    }

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
