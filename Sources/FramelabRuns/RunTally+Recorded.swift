import FramelabRecording

extension RunTally {
    /// The tally of a recorded run, from its records (what `framelab report` summarises and
    /// `framelab compare` tests).
    public init(recorded run: RunData) {
        self.init(stageCount: run.stageNames.count)
        var started: [Int64: Int64] = [:], finished: [Int64: Int64] = [:]
        for t in run.timings {
            addTiming(stage: Int(t.stage), durationNs: UInt64(max(0, t.durationNs)))
            started[t.frame] = min(started[t.frame] ?? .max, t.startNs)
            finished[t.frame] = max(finished[t.frame] ?? 0, t.startNs &+ t.durationNs)
        }
        for f in run.frames {
            func ns(_ v: Int64?) -> UInt64 { UInt64(max(0, v ?? 0)) }
            // Schema 2 records the engine's own queue wait and latency; version 1 has only the timings.
            let start = f.queueWaitNs >= 0 ? f.arrivalNs &+ f.queueWaitNs : started[f.index]
            let end = f.latencyNs >= 0 ? f.arrivalNs &+ f.latencyNs : finished[f.index]
            addFrame(dropped: f.dropped, failed: f.failed, arrival: ns(f.arrivalNs), started: ns(start), finished: ns(end))
        }
        for f in run.failures { addFailureReason(f.reason) }
    }
}
