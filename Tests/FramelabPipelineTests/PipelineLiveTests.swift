import FramelabCore
import FramelabPipeline
import Testing

/// A live source that reports an event after its second frame, at a fixed rate.
final class EventingSource: FrameSource {
    let spec = try! SourceSpec(parsing: "test:eventing")
    let isLive = true
    let nominalFPS: Double? = 200
    let expectedFrameCount: Int? = nil
    private var index = 0
    private var eventSent = false
    private let start = MonotonicClock.now()

    func next() throws -> SourceItem? {
        if index == 2 && !eventSent {
            eventSent = true
            return .event(kind: "device-switch", detail: "from a to b")
        }
        guard index < 60 else { return nil }
        MonotonicClock.sleep(until: start + UInt64(index) * 5_000_000)  // 200 fps
        defer { index += 1 }
        return .frame(Frame(index: index, pts: Int64(index) * 5_000_000, arrival: MonotonicClock.now(),
                            image: Mat(format: .gray8, width: 4, height: 4)))
    }
}

@Suite struct PipelineLiveTests {
    @Test func sourceEventsReachTheConsumerInOrderAndAreNeverDropped() throws {
        var c = Collected()
        try Pipeline(source: EventingSource(), stages: [], policy: .dropLate).run { c.add($0) }
        #expect(c.sourceEvents == ["device-switch: from a to b"])
    }

    @Test func maxFPSDropsFramesArrivingTooSoonAndRecordsThem() throws {
        var c = Collected()
        // 200 fps in, capped at 50: about three of four frames are dropped.
        try Pipeline(source: EventingSource(), stages: [], policy: .keepAll, maxFPS: 50).run { c.add($0) }
        #expect(c.outcomes.count == 60)
        #expect(c.processed.count >= 12 && c.processed.count <= 18, "\(c.processed)")
        #expect(c.dropped.count == 60 - c.processed.count)
        let arrivals = c.outcomes.filter { !$0.dropped }.map(\.arrival)
        for (a, b) in zip(arrivals, arrivals.dropFirst()) { #expect(b - a >= 19_000_000) }
    }
}
