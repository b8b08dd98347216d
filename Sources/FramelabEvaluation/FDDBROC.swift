/// One point of FDDB's ROC: false positives (a count over the dataset, FDDB's x axis)
/// against the true positive rate, for detections with score >= threshold.
public struct ROCPoint: Sendable, Equatable {
    public var threshold: Double
    public var falsePositives: Int
    public var truePositiveRate: Double
}

/// FDDB's discrete and continuous ROC curves (Jain and Learned-Miller, 2010): in the
/// discrete score a matched face counts 1; in the continuous score it counts its IoU
/// with the detection. Matching is Framelab's greedy IoU >= 0.5 matching (FDDB's own tool
/// uses a bipartite matching; with one detection per face they rarely differ).
public struct FDDBROC: Sendable {
    public let discrete: [ROCPoint]
    public let continuous: [ROCPoint]

    public init(outcomes: [ScoredOutcome], faces: Int) {
        let sorted = outcomes.sorted { $0.score > $1.score }
        var fp = 0, tp = 0
        var overlap = 0.0
        var d: [ROCPoint] = [], c: [ROCPoint] = []
        var i = 0
        let n = Double(max(faces, 1))
        while i < sorted.count {
            let s = sorted[i].score
            while i < sorted.count && sorted[i].score == s {
                if sorted[i].isTruePositive { tp += 1; overlap += sorted[i].iou } else { fp += 1 }
                i += 1
            }
            d.append(ROCPoint(threshold: s, falsePositives: fp, truePositiveRate: Double(tp) / n))
            c.append(ROCPoint(threshold: s, falsePositives: fp, truePositiveRate: overlap / n))
        }
        discrete = d
        continuous = c
    }
}
