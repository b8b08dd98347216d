import FramelabCore

/// One row of `framelab eval`'s comparison table (and its JSON object).
public struct DetectorSummary: Sendable {
    public var name: String
    public var accuracy: PrecisionRecall
    public var roc: FDDBROC
    /// Milliseconds per image: median and 95th percentile.
    public var p50: Double
    public var p95: Double
    public var meanMs: Double
    /// Images the detector ran on, and those that failed.
    public var images: Int
    public var failed: Int
    public var faces: Int

    /// One thread's throughput: 1000 / mean milliseconds per image.
    public var imagesPerSecond: Double { meanMs > 0 ? 1000 / meanMs : 0 }

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
        faces = ran.reduce(0) { $0 + $1.match.faces }
        accuracy = PrecisionRecall(outcomes: outcomes, faces: faces)
        roc = FDDBROC(frames: ran)
        let times = SampleStatistics(ran.map(\.milliseconds))
        p50 = times.percentile(50)
        p95 = times.percentile(95)
        meanMs = times.mean
        images = ran.count
        failed = frames.count - ran.count
    }
}
