import FramelabCore
import FramelabElements
import FramelabFilters
import FramelabPipeline
import FramelabSources
import Testing

/// A stage that takes a fixed time per frame, to make the consumer fall behind.
final class SlowStage: PipelineStage {
    let name = "slow"
    let acceptedFormats = PixelFormat.allCases
    let milliseconds: Double
    init(milliseconds: Double) { self.milliseconds = milliseconds }
    func outputFormat(for input: PixelFormat) -> PixelFormat? { input }
    func process(_ frame: Frame) throws -> Frame {
        MonotonicClock.sleep(until: MonotonicClock.now() + UInt64(milliseconds * 1e6))
        return frame
    }
}

/// A stage that fails on chosen frames.
final class FailingStage: PipelineStage {
    let name = "flaky"
    let acceptedFormats = PixelFormat.allCases
    let failOn: Set<Int>
    init(failOn: Set<Int>) { self.failOn = failOn }
    func outputFormat(for input: PixelFormat) -> PixelFormat? { input }
    func process(_ frame: Frame) throws -> Frame {
        if failOn.contains(frame.index) { throw FramelabError(.processing, "frame \(frame.index) refused") }
        return frame
    }
}

struct Collected {
    var outcomes: [FrameOutcome] = []
    var timings: [(frame: Int, stage: Int, duration: UInt64)] = []
    var failures: [(frame: Int, stage: Int, reason: String)] = []
    var outputs = 0
    var sourceEvents: [String] = []

    mutating func add(_ e: PipelineEvent) {
        switch e {
        case .frame(let o): outcomes.append(o)
        case .timing(let f, let s, _, let d): timings.append((f, s, d))
        case .failure(let f, let s, let r): failures.append((f, s, r))
        case .output: outputs += 1
        case .sourceEvent(let kind, let detail, _, _): sourceEvents.append("\(kind): \(detail)")
        }
    }

    var dropped: [Int] { outcomes.filter(\.dropped).map(\.index) }
    var processed: [Int] { outcomes.filter { !$0.dropped && !$0.failed }.map(\.index) }
}

@Suite struct PipelineTests {
    @Test func slowStageUnderDropLateDropsAndRecordsWhich() throws {
        // 200 fps source, 20 ms stage: about 3 of every 4 frames must be dropped.
        let source = try SourceRegistry.builtIns.open("synthetic:32x24@200")
        let pipeline = Pipeline(source: source, stages: [SlowStage(milliseconds: 20)], policy: .dropLate, maxFrames: 10)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.processed.count == 10)
        #expect(c.dropped.count >= 10)
        // Every index up to the last processed one is accounted for exactly once.
        let all = (c.dropped + c.processed).sorted()
        #expect(all == Array(0...c.processed.last!))
        // Newest frame wins: processed frames are not consecutive.
        #expect(zip(c.processed, c.processed.dropFirst()).contains { $1 - $0 > 1 })
    }

    @Test func slowStageUnderKeepAllDropsNothing() throws {
        let source = try SourceRegistry.builtIns.open("synthetic:32x24@200")
        let pipeline = Pipeline(source: source, stages: [SlowStage(milliseconds: 10)], policy: .keepAll, maxFrames: 15)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.dropped.isEmpty)
        #expect(c.processed == Array(0..<15))
        #expect(c.timings.count == 15 && c.timings.allSatisfy { $0.duration >= 10_000_000 })
    }

    @Test func everyStageIsTimedPerFrameInOrder() throws {
        let registry = FilterRegistry.builtIns
        let stages = try ["sepia", "hue:angle=1", "gray"].map { text -> any PipelineStage in
            let spec = try ElementSpec(parsing: text)
            return FilterStage(try registry.instantiate(spec), acceptedFormats: registry[spec.name]!.formats)
        }
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:64x48@1000"), stages: stages,
                                policy: .keepAll, maxFrames: 5)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.timings.map(\.stage) == Array(repeating: [0, 1, 2], count: 5).flatMap { $0 })
        #expect(c.outputs == 5)
    }

    @Test func aFailingStageRecordsTheFrameAndTheRunGoesOn() throws {
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"),
                                stages: [FailingStage(failOn: [2, 4])], policy: .keepAll, maxFrames: 6)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.failures.map(\.frame) == [2, 4])
        #expect(c.failures.allSatisfy { $0.stage == 0 && $0.reason.contains("refused") })
        #expect(c.outcomes.filter(\.failed).map(\.index) == [2, 4])
        #expect(c.outputs == 4)
    }

    @Test func aStageThatCannotTakeTheFormatStopsTheRunWithAMessage() throws {
        let registry = FilterRegistry.builtIns
        let stages: [any PipelineStage] = try ["gray", "sepia"].map {
            FilterStage(try registry.instantiate(ElementSpec(name: $0)), acceptedFormats: registry[$0]!.formats)
        }
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"), stages: stages, maxFrames: 3)
        let error = #expect(throws: FramelabError.self) { try pipeline.run { _ in } }
        #expect(error?.message == "stage 'sepia' does not accept gray8 images (accepts bgra8, bgr8)")
    }

    @Test func requestStopEndsALiveRun() throws {
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@100"), stages: [])
        var count = 0
        try pipeline.run { event in
            if case .frame = event { count += 1 }
            if count == 3 { pipeline.requestStop() }
        }
        #expect(pipeline.wasStopped)
        #expect(count >= 3 && count < 10)
    }
}
