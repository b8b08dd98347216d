import FramelabCore
import FramelabPipeline
import FramelabSources
import Testing

/// drop-late's freshness check: with a stage slower than the frame interval, a frame that
/// has already waited too long is passed over for the next one, so latency from arrival to
/// result stays within two frame intervals.
@Suite struct DropLateFreshnessTests {
    @Test func aStageSlowerThanTheIntervalStillFinishesFramesWithinTwoIntervals() throws {
        // 20 fps (50 ms interval), an 80 ms stage. Taking whatever frame waits would finish
        // it 80-130 ms after arrival (over 100 ms for about 60% of frames); waiting for the
        // next frame when the waiting one is over 20 ms old keeps nearly all within 100 ms.
        let interval: UInt64 = 50_000_000
        let source = try SourceRegistry.builtIns.open("synthetic:32x24@20")
        let pipeline = Pipeline(source: source, stages: [SlowStage(milliseconds: 80)], policy: .dropLate, maxFrames: 24)
        var c = Collected()
        try pipeline.run { c.add($0) }
        let done = c.outcomes.filter { !$0.dropped && !$0.failed }
        #expect(done.count == 24)
        // The first frames run before the interval and the stage time are known.
        let latencies = done.dropFirst(4).map { $0.finished - $0.arrival }
        let late = latencies.filter { $0 > 2 * interval + 5_000_000 }
        #expect(late.count <= 3, "latencies (ms): \(latencies.map { $0 / 1_000_000 })")
        // Every frame is still accounted for: processed or recorded as dropped, once.
        let indices = c.outcomes.map(\.index).sorted()
        #expect(indices == Array(0...indices.last!))
    }
}
