import FramelabCore
import Foundation

/// Runs frames through the stages off the dispatching thread and puts each result into
/// `OrderedResults` under the sequence number it was submitted with.
protocol FrameExecutor: AnyObject, Sendable {
    /// Waits until a frame submitted now would start at once. The dispatcher takes the
    /// next frame from the source queue only then, so under drop-late the queue keeps
    /// replacing waiting frames with newer ones while every worker is busy.
    func waitForRoom()
    func submit(_ frame: Frame, sequence: Int)
    /// No more frames: returns once every submitted frame's result has been put.
    func finish()
}

/// How long the stages take per frame (a running mean weighted 1/8 to the newest), for
/// drop-late's freshness check; shared by the threads that process frames.
final class ProcessingEstimate: @unchecked Sendable {
    private let value = Monitor<UInt64?>(nil)

    func add(_ took: UInt64) { value.update { v in v = v.map { ($0 * 7 + took) / 8 } ?? took } }
    var current: UInt64? { value.update { $0 } }
}

/// Frame-parallel execution: N worker threads, each with its own instances of every
/// stage, each taking whole frames.
final class WorkerPool: FrameExecutor, @unchecked Sendable {
    private struct State {
        var jobs: [(sequence: Int, frame: Frame)] = []
        var idle = 0
        var running = 0
        var closed = false
    }

    private let state = Monitor(State())
    private let results: OrderedResults
    private let estimate: ProcessingEstimate

    init(chains: [StageChain], results: OrderedResults, estimate: ProcessingEstimate) {
        self.results = results
        self.estimate = estimate
        state.update { $0.running = chains.count; $0.idle = chains.count }
        for (i, chain) in chains.enumerated() {
            let thread = Thread { [self] in work(chain) }
            thread.name = "framelab-worker-\(i)"
            thread.start()
        }
    }

    private func work(_ chain: StageChain) {
        while let job = state.wait(until: { !$0.jobs.isEmpty || $0.closed }, then: { s -> (sequence: Int, frame: Frame)? in
            guard !s.jobs.isEmpty else { return nil }
            s.idle -= 1
            return s.jobs.removeFirst()
        }) {
            let done = chain.process(job.frame)
            estimate.add(done.finished &- done.started)
            results.put(.processed(done), at: job.sequence)
            state.update { $0.idle += 1 }
        }
        state.update { $0.running -= 1 }
    }

    func waitForRoom() { state.wait(until: { $0.idle > $0.jobs.count }) { _ in } }

    func submit(_ frame: Frame, sequence: Int) { state.update { $0.jobs.append((sequence, frame)) } }

    func finish() {
        state.update { $0.closed = true }
        state.wait(until: { $0.running == 0 }) { _ in }
    }
}

/// Stage-parallel execution: each stage on its own thread, a bounded queue before it, so
/// stage 2 works on frame k while stage 1 works on frame k+1 (like a GStreamer `queue`
/// between elements).
final class StageThreads: FrameExecutor, @unchecked Sendable {
    /// Frames that may wait before each stage.
    static let queueCapacity = 2

    private final class Channel: @unchecked Sendable {
        struct State {
            var items: [(sequence: Int, work: ProcessedFrame)] = []
            var busy = false
            var closed = false
        }
        let state = Monitor(State())

        func put(_ item: (sequence: Int, work: ProcessedFrame)) {
            state.wait(until: { $0.items.count < StageThreads.queueCapacity }) { $0.items.append(item) }
        }

        /// The next item (marking the stage busy), or nil once closed and drained.
        func take() -> (sequence: Int, work: ProcessedFrame)? {
            state.wait(until: { !$0.items.isEmpty || $0.closed }) { s in
                guard !s.items.isEmpty else { return nil }
                s.busy = true
                return s.items.removeFirst()
            }
        }

        func done() { state.update { $0.busy = false } }
        func close() { state.update { $0.closed = true } }
    }

    private let channels: [Channel]
    private let running = Monitor(0)
    private let results: OrderedResults
    private let estimate: ProcessingEstimate

    init(chain: StageChain, results: OrderedResults, estimate: ProcessingEstimate) {
        self.results = results
        self.estimate = estimate
        channels = chain.stages.map { _ in Channel() }
        running.update { $0 = chain.stages.count }
        for i in chain.stages.indices {
            let thread = Thread { [self] in runStage(i, chain) }
            thread.name = "framelab-stage-\(i)"
            thread.start()
        }
    }

    private func runStage(_ i: Int, _ chain: StageChain) {
        let input = channels[i]
        let last = i == channels.count - 1
        while var item = input.take() {
            chain.run(stage: i, on: &item.work)
            input.done()
            if last {
                estimate.add(item.work.finished &- item.work.started)
                results.put(.processed(item.work), at: item.sequence)
            } else {
                channels[i + 1].put(item)
            }
        }
        if !last { channels[i + 1].close() }
        running.update { $0 -= 1 }
    }

    func waitForRoom() {
        channels[0].state.wait(until: { $0.items.isEmpty && !$0.busy }) { _ in }
    }

    func submit(_ frame: Frame, sequence: Int) { channels[0].put((sequence, ProcessedFrame(frame))) }

    func finish() {
        channels[0].close()
        running.wait(until: { $0 == 0 }) { _ in }
    }
}
