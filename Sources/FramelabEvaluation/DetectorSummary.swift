import FramelabCore

/// One row of `framelab eval`'s comparison table (and its JSON object).
public struct DetectorSummary: Sendable {
    public var name: String
    public var accuracy: PrecisionRecall
    public var roc: FDDBROC
    /// Milliseconds per image: median and 95th percentile; NaN (as `meanMs`) when the
    /// frames carry no timings (saved predictions): see `hasTimings`.
    public var p50: Double
    public var p95: Double
    public var meanMs: Double
    /// Images the detector ran on, and those that failed.
    public var images: Int
    public var failed: Int
    public var faces: Int

    /// One thread's throughput: 1000 / mean milliseconds per image (NaN without timings).
    public var imagesPerSecond: Double { hasTimings ? (meanMs > 0 ? 1000 / meanMs : 0) : .nan }
    /// False when the frames that ran were not timed (saved predictions): reports show
    /// the times as absent, never as 0 ms.
    public var hasTimings: Bool { !p50.isNaN }

    public init(name: String, frames: [FrameResult]) {
        self.name = name
        let ran = frames.filter { $0.failure == nil }
        var outcomes: [ScoredOutcome] = []
        for f in ran {
            for (d, o) in zip(f.detections, f.match.outcomes) {
                switch o {
                case .truePositive(_, let iou): outcomes.append(ScoredOutcome(score: d.score, isTruePositive: true, iou: iou))
                case .falsePositive: outcomes.append(ScoredOutcome(score: d.score, isTruePositive: false))
                case .ignored: break
                }
            }
        }
        // A failed image's faces are misses: leaving them out would score a detector on the
        // images it managed to read (1 of 3 read, AP 1.000).
        faces = frames.reduce(0) { $0 + $1.match.faces }
        accuracy = PrecisionRecall(outcomes: outcomes, faces: faces)
        roc = FDDBROC(frames: frames)
        let timed = ran.filter(\.timed)
        let times = SampleStatistics(timed.map(\.milliseconds))
        let untimed = timed.isEmpty && !ran.isEmpty
        p50 = untimed ? .nan : times.percentile(50)
        p95 = untimed ? .nan : times.percentile(95)
        meanMs = untimed ? .nan : times.mean
        images = ran.count
        failed = frames.count - ran.count
    }
}
