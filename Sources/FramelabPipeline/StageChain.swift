import FramelabCore

/// What happened to one frame on its way through the stages.
struct ProcessedFrame {
    struct Timing { let stage: Int; let start: UInt64; let duration: UInt64 }
    struct Failure { let stage: Int; let reason: String }

    /// The frame as the last stage that ran left it (annotations included).
    var frame: Frame
    /// When the first stage started and the last one ended (monotonic ns).
    var started: UInt64 = 0
    var finished: UInt64 = 0
    var timings: [Timing] = []
    var failures: [Failure] = []
    /// A stage whose failure ends the frame failed: later stages did not run.
    var ended = false

    init(_ frame: Frame) {
        self.frame = frame
        timings.reserveCapacity(4)
    }

    var failed: Bool { !failures.isEmpty }
}

/// Runs frames through one worker's instances of the stages, timing each.
///
/// `copyBorrowedOutputs`: when several frames are in flight, an image a stage may
/// overwrite on its next call is copied before the frame moves on.
///
/// Sendable by hand: each stage instance is used by one thread at a time (one worker's
/// chain, or one stage thread each).
struct StageChain: @unchecked Sendable {
    let stages: [any PipelineStage]
    let copyBorrowedOutputs: Bool

    /// Stage `i` of this chain applied to `work`, unless an earlier failure ended the frame.
    func run(stage i: Int, on work: inout ProcessedFrame) {
        guard !work.ended else { return }
        let stage = stages[i]
        let start = MonotonicClock.now()
        if work.timings.isEmpty { work.started = start }
        do {
            var out = try stage.process(work.frame)
            if copyBorrowedOutputs && stage.outputValidUntilNextCall && !out.image.sharesPixels(with: work.frame.image) {
                out.image = out.image.clone()
            }
            work.frame = out
        } catch {
            work.failures.append(.init(stage: i, reason: "\(stage.name): \(error)"))
            work.ended = stage.failureEndsFrame
        }
        let end = MonotonicClock.now()
        work.timings.append(.init(stage: i, start: start, duration: end - start))
        work.finished = end
    }

    /// Every stage in order.
    func process(_ frame: Frame) -> ProcessedFrame {
        var work = ProcessedFrame(frame)
        for i in stages.indices { run(stage: i, on: &work) }
        if work.timings.isEmpty {
            work.started = MonotonicClock.now()
            work.finished = work.started
        }
        return work
    }

    /// Checks that each stage accepts what the one before produces.
    static func negotiate(_ stages: [any PipelineStage], input: PixelFormat) throws {
        var format = input
        for stage in stages {
            guard let next = stage.outputFormat(for: format) else {
                let accepted = stage.acceptedFormats.map(\.name).joined(separator: ", ")
                throw FramelabError(.unsupported, "stage '\(stage.name)' does not accept \(format) images (accepts \(accepted))")
            }
            format = next
        }
    }
}
