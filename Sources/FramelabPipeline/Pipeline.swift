import FramelabCore
import Foundation

/// A source feeding timed stages through a queue, with a drop policy: the engine behind
/// `run`, `eval` and the benchmarks.
///
/// The source runs on its own thread. Stages run one of three ways:
/// - serially, on the thread that calls `run` (`workers` 1, no pipelining);
/// - frame-parallel: `workers` threads, each with its own replica of every stage, each
///   taking whole frames;
/// - stage-parallel (`pipelining`): each stage on its own thread, a bounded queue before it.
///
/// Whatever the mode, every event is delivered on the thread that called `run`, in frame
/// order, so observers need no locking and records come out as a serial run's would.
public final class Pipeline: @unchecked Sendable {
    /// Frames that may wait between source and stages under `keep-all`.
    public static let defaultQueueCapacity = 4
    /// The most frame-parallel workers a run may ask for.
    public static let maxWorkers = 64

    public let source: any FrameSource
    public let stages: [any PipelineStage]
    public let policy: DropPolicy
    /// Stop after this many frames have been processed (dropped frames do not count).
    public let maxFrames: Int?
    /// Frames arriving sooner than this after the last processed one are dropped (and
    /// recorded as dropped): the `--max-fps` cap, like AVFoundation's minFrameDuration.
    public let minimumFrameInterval: UInt64?
    /// Threads that process whole frames at once (1: the calling thread does).
    public let workers: Int
    /// Each stage on its own thread.
    public let pipelining: Bool
    private let queue: FrameQueue
    private let stopRequested = Monitor(false)
    /// The concurrent chains, once made (`prepare`); `.some(nil)`: a serial run.
    private var preparedChains: [StageChain]??

    public init(source: any FrameSource, stages: [any PipelineStage], policy: DropPolicy? = nil,
                maxFrames: Int? = nil, queueCapacity: Int = Pipeline.defaultQueueCapacity,
                maxFPS: Double? = nil, workers: Int = 1, pipelining: Bool = false) {
        self.source = source
        self.stages = stages
        self.policy = policy ?? source.defaultPolicy
        self.maxFrames = maxFrames
        minimumFrameInterval = maxFPS.flatMap { $0 > 0 && $0.isFinite ? UInt64(exactly: (1e9 / $0).rounded()) : nil }
        self.workers = min(max(1, workers), Self.maxWorkers)
        self.pipelining = pipelining
        queue = FrameQueue(policy: self.policy, capacity: queueCapacity)
    }

    /// True once `requestStop()` was called (the run ended early on request).
    public var wasStopped: Bool { stopRequested.update { $0 } }

    /// Asks a running pipeline to stop after the frames in progress (thread-safe).
    public func requestStop() {
        stopRequested.update { $0 = true }
        queue.cancel()
    }

    /// Runs to the end of the source, `maxFrames`, or `requestStop()`.
    /// Throws the error that ended the run early (a source or format error, or a stage
    /// that cannot be replicated for the workers); every event before it has been delivered.
    public func run(_ onEvent: (PipelineEvent) -> Void) throws {
        let executorChains = try preparedChains ?? makeChains()
        preparedChains = nil
        let producer = SourceThread(source: source, queue: queue)
        defer {
            queue.cancel()
            producer.join()
        }
        let intake = FrameIntake(queue: queue, stages: stages, minimumFrameInterval: minimumFrameInterval)
        if let chains = executorChains {
            try runConcurrently(intake, chains, onEvent)
        } else {
            try runSerially(intake, onEvent)
        }
    }

    /// Makes the workers' replicas of the stages now rather than when `run` starts (a
    /// detector's replica may load a model), so a caller timing `run` times the frames only.
    /// Call it on the thread that will call `run`.
    public func prepare() throws {
        if preparedChains == nil { preparedChains = .some(try makeChains()) }
    }

    /// The chains of a concurrent run (one per worker, or one for stage threads); nil for a serial run.
    private func makeChains() throws -> [StageChain]? {
        if pipelining && stages.count > 1 { return [StageChain(stages: stages, copyBorrowedOutputs: true)] }
        guard workers > 1 else { return nil }
        var chains = [StageChain(stages: stages, copyBorrowedOutputs: true)]
        for _ in 1..<workers {
            chains.append(StageChain(stages: try stages.map { try $0.replica() }, copyBorrowedOutputs: true))
        }
        return chains
    }

    private func runSerially(_ intake: FrameIntake, _ onEvent: (PipelineEvent) -> Void) throws {
        let chain = StageChain(stages: stages, copyBorrowedOutputs: false)
        var processed = 0
        var estimate: UInt64?
        while maxFrames.map({ processed < $0 }) ?? true {
            for step in intake.pull(processingEstimate: estimate) {
                switch step {
                case .item(let item): Self.deliver(item, onEvent)
                case .end(let error):
                    if let error { throw error }
                    return
                case .frame(let frame):
                    if let maxFrames, processed >= maxFrames { return }
                    let done = chain.process(frame)
                    let took = done.finished &- done.started
                    estimate = estimate.map { ($0 * 7 + took) / 8 } ?? took
                    processed += 1
                    Self.deliver(.processed(done), onEvent)
                }
            }
        }
    }

    private func runConcurrently(_ intake: FrameIntake, _ chains: [StageChain],
                                 _ onEvent: (PipelineEvent) -> Void) throws {
        let results = OrderedResults()
        let estimate = ProcessingEstimate()
        let executor: any FrameExecutor = pipelining
            ? StageThreads(chain: chains[0], results: results, estimate: estimate)
            : WorkerPool(chains: chains, results: results, estimate: estimate)
        let dispatcher = Thread { [maxFrames] in
            var submitted = 0
            var endError: Error?
            dispatching: while maxFrames.map({ submitted < $0 }) ?? true {
                executor.waitForRoom()
                for step in intake.pull(processingEstimate: estimate.current) {
                    switch step {
                    case .item(let item): results.append(item)
                    case .end(let error):
                        endError = error
                        break dispatching
                    case .frame(let frame):
                        if let maxFrames, submitted >= maxFrames { break dispatching }
                        executor.submit(frame, sequence: results.issue())
                        submitted += 1
                    }
                }
            }
            executor.finish()
            results.end(error: endError)
        }
        dispatcher.name = "framelab-dispatch"
        dispatcher.start()
        while let item = results.take() { Self.deliver(item, onEvent) }
        if let error = results.error { throw error }
    }

    /// Turns one stream item into the events observers see, in their documented order:
    /// a processed frame's timings (each failure right after its stage's timing), then its
    /// outcome, then its output image unless it failed.
    private static func deliver(_ item: StreamItem, _ onEvent: (PipelineEvent) -> Void) {
        switch item {
        case .processed(let done):
            let index = done.frame.index
            var failures = done.failures[...]
            for t in done.timings {
                onEvent(.timing(frame: index, stage: t.stage, start: t.start, duration: t.duration))
                while let f = failures.first, f.stage == t.stage {
                    onEvent(.failure(frame: index, stage: f.stage, reason: f.reason))
                    failures = failures.dropFirst()
                }
            }
            onEvent(.frame(FrameOutcome(index: index, pts: done.frame.pts, arrival: done.frame.arrival, dropped: false,
                                        failed: done.failed, started: done.started, finished: done.finished,
                                        annotations: done.frame.annotations)))
            if !done.failed { onEvent(.output(done.frame)) }
        case .dropped(let d):
            onEvent(.frame(FrameOutcome(index: d.index, pts: d.pts, arrival: d.arrival, dropped: true, failed: false)))
        case .sourceFailure(let index, let origin, let reason, let time):
            onEvent(.failure(frame: index, stage: -1, reason: reason.contains(origin) ? reason : "\(origin): \(reason)"))
            onEvent(.frame(FrameOutcome(index: index, pts: 0, arrival: time, dropped: false, failed: true)))
        case .sourceEvent(let kind, let detail, let frame, let time):
            onEvent(.sourceEvent(kind: kind, detail: detail, frame: frame, time: time))
        }
    }
}
