import FramelabCore
import FramelabElements
import FramelabFilters
import FramelabPipeline
import FramelabSources
import Testing

/// Counts how many frames are inside `process` at once, across every replica.
final class ConcurrencyProbe: @unchecked Sendable {
    private let state = Monitor((now: 0, most: 0))
    func enter() { state.update { $0.now += 1; $0.most = max($0.most, $0.now) } }
    func leave() { state.update { $0.now -= 1 } }
    var most: Int { state.update { $0.most } }
}

/// A stage that holds each frame for a while and notes how many it holds at once.
final class ProbedStage: PipelineStage {
    let name: String
    let acceptedFormats = PixelFormat.allCases
    let probe: ConcurrencyProbe
    let milliseconds: Double
    init(name: String = "probed", probe: ConcurrencyProbe, milliseconds: Double) {
        self.name = name
        self.probe = probe
        self.milliseconds = milliseconds
    }
    func outputFormat(for input: PixelFormat) -> PixelFormat? { input }
    func process(_ frame: Frame) throws -> Frame {
        probe.enter()
        defer { probe.leave() }
        MonotonicClock.sleep(until: MonotonicClock.now() + UInt64(milliseconds * 1e6))
        return frame
    }
    func replica() throws -> any PipelineStage { ProbedStage(name: name, probe: probe, milliseconds: milliseconds) }
}

/// A filter that writes a call number (counted across all its replicas) into one buffer
/// it reuses on every call, and says its output is valid only until its next call (as
/// plugin filters do).
final class ReusingCounterFilter: FrameFilter {
    let name = "counter"
    private let calls: Monitor<UInt8>
    private let buffer = Mat(format: .gray8, width: 8, height: 8)
    init(calls: Monitor<UInt8>) { self.calls = calls }
    func outputFormat(for input: PixelFormat) -> PixelFormat? { .gray8 }
    func process(_ input: Mat) throws -> Mat {
        let value = calls.update { n -> UInt8 in n &+= 1; return n }
        buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: value) }
        return buffer
    }
}

@Suite struct ParallelPipelineTests {
    static func sepiaStage() throws -> FilterStage {
        let make = try FilterRegistry.builtIns.chainFactories([ElementSpec(name: "sepia")], path: .simd)[0]
        return FilterStage(try make(), makeFilter: make)
    }

    @Test(arguments: [(2, false), (3, false), (1, true)])
    func keepAllDeliversEveryFrameInOrder(workers: Int, pipelining: Bool) throws {
        let probe = ConcurrencyProbe()
        let stages: [any PipelineStage] = [ProbedStage(probe: probe, milliseconds: 2), try Self.sepiaStage()]
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"), stages: stages, policy: .keepAll,
                                maxFrames: 40, workers: workers, pipelining: pipelining)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.outcomes.map(\.index) == Array(0..<40))
        #expect(c.timings.map(\.frame) == (0..<40).flatMap { [$0, $0] })
        #expect(c.timings.map(\.stage) == Array(repeating: [0, 1], count: 40).flatMap { $0 })
        #expect(c.outputs == 40)
        // Each outcome knows when its stages ran: after it arrived, first stage before the last ended.
        #expect(c.outcomes.allSatisfy { $0.started >= $0.arrival && $0.finished >= $0.started })
        if workers > 1 { #expect(probe.most == workers) }
    }

    @Test func stagePipeliningRunsTwoStagesAtOnce() throws {
        let probe = ConcurrencyProbe()
        let stages: [any PipelineStage] = [ProbedStage(name: "a", probe: probe, milliseconds: 5),
                                           ProbedStage(name: "b", probe: probe, milliseconds: 5)]
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"), stages: stages, policy: .keepAll,
                                maxFrames: 12, pipelining: true)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.processed == Array(0..<12))
        #expect(probe.most == 2)
    }

    @Test func dropLateWithWorkersKeepsTheNewestAndRecordsEveryDrop() throws {
        let probe = ConcurrencyProbe()
        // 200 fps source, two workers at 20 ms each: about half of all frames must be dropped.
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@200"),
                                stages: [ProbedStage(probe: probe, milliseconds: 20)], policy: .dropLate,
                                maxFrames: 12, workers: 2)
        var c = Collected()
        try pipeline.run { c.add($0) }
        #expect(c.processed.count == 12)
        #expect(c.dropped.count >= 6)
        // Delivered in frame order, every index up to the last processed one exactly once.
        #expect(c.outcomes.map(\.index) == c.outcomes.map(\.index).sorted())
        #expect((c.dropped + c.processed).sorted() == Array(0...c.processed.last!))
        #expect(zip(c.processed, c.processed.dropFirst()).contains { $1 - $0 > 1 })
    }

    @Test func failuresWithWorkersLandOnTheirFrames() throws {
        let stages: [any PipelineStage] = [FailingStage(failOn: [3, 7, 8])]
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"), stages: stages, policy: .keepAll,
                                maxFrames: 10, workers: 2)
        let error = #expect(throws: FramelabError.self) { try pipeline.run { _ in } }
        // FailingStage has no replica: the run says so before reading a frame.
        #expect(error?.message == "stage 'flaky' cannot run on several workers (it has no replica)")

        let shared = ReplicableFailingStage(failOn: [3, 7, 8])
        let parallel = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"), stages: [shared], policy: .keepAll,
                                maxFrames: 10, workers: 2)
        var c = Collected()
        try parallel.run { c.add($0) }
        #expect(c.failures.map(\.frame) == [3, 7, 8])
        #expect(c.outcomes.filter(\.failed).map(\.index) == [3, 7, 8])
        #expect(c.outputs == 7)
    }

    @Test(arguments: [(2, false), (1, true)])
    func heldOutputsKeepTheirPixels(workers: Int, pipelining: Bool) throws {
        // A filter whose output is valid only until its next call: with several frames in
        // flight the engine copies it, so every held output keeps the value it was given.
        let calls = Monitor<UInt8>(0)
        let counter = FilterStage(ReusingCounterFilter(calls: calls), acceptedFormats: PixelFormat.allCases,
                                  makeFilter: { ReusingCounterFilter(calls: calls) })
        let probe = ConcurrencyProbe()
        let stages: [any PipelineStage] = [counter, ProbedStage(probe: probe, milliseconds: 1)]
        let pipeline = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:32x24@1000"), stages: stages, policy: .keepAll,
                                maxFrames: 20, workers: workers, pipelining: pipelining)
        var held: [Mat] = []
        try pipeline.run { if case .output(let f) = $0 { held.append(f.image) } }
        let values = held.map { m in m.withUnsafeBytes { $0[0] } }
        #expect(values.count == 20)
        #expect(Set(values).count == 20)  // no two held outputs share a buffer

        // Built-in filters hand out a fresh buffer while a frame still holds the last one.
        var outputs: [Mat] = []
        let sepia = Pipeline(source: try SourceRegistry.builtIns.open("synthetic:64x48@1000"), stages: [try Self.sepiaStage()],
                             policy: .keepAll, maxFrames: 6, workers: workers, pipelining: pipelining)
        try sepia.run { if case .output(let f) = $0 { outputs.append(f.image) } }
        for (a, b) in zip(outputs, outputs.dropFirst()) { #expect(!a.sharesPixels(with: b)) }
    }
}

/// Like FailingStage, but with replicas, so it may run on several workers.
final class ReplicableFailingStage: PipelineStage {
    let name = "flaky"
    let acceptedFormats = PixelFormat.allCases
    let failOn: Set<Int>
    init(failOn: Set<Int>) { self.failOn = failOn }
    func outputFormat(for input: PixelFormat) -> PixelFormat? { input }
    func process(_ frame: Frame) throws -> Frame {
        if failOn.contains(frame.index) { throw FramelabError(.processing, "frame \(frame.index) refused") }
        return frame
    }
    func replica() throws -> any PipelineStage { ReplicableFailingStage(failOn: failOn) }
}
