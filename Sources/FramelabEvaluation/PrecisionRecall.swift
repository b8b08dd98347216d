/// A detection pooled over a dataset for curves: its score and whether it was right.
public struct ScoredOutcome: Sendable {
    public var score: Double
    public var isTruePositive: Bool
    /// IoU with its face for true positives (for FDDB's continuous score), else 0.
    public var iou: Double
    public init(score: Double, isTruePositive: Bool, iou: Double = 0) {
        self.score = score; self.isTruePositive = isTruePositive; self.iou = iou
    }
}

/// One point of a precision-recall curve: keeping detections with score >= threshold.
public struct PRPoint: Sendable, Equatable {
    public var threshold: Double
    public var precision: Double
    public var recall: Double

    public init(threshold: Double, precision: Double, recall: Double) {
        self.threshold = threshold; self.precision = precision; self.recall = recall
    }
}

/// Precision, recall, F1, the PR curve and average precision of pooled detections.
public struct PrecisionRecall: Sendable {
    public let faces: Int
    public let truePositives: Int
    public let falsePositives: Int
    /// One point per distinct score, from the highest threshold to the lowest.
    public let curve: [PRPoint]

    /// `outcomes` excludes ignored detections; `faces` counts faces to find.
    public init(outcomes: [ScoredOutcome], faces: Int) {
        self.init(descending: outcomes.sorted { $0.score > $1.score }, faces: faces)
    }

    /// `descending`: outcomes sorted by score, highest first. `weight(k)` is how many times
    /// outcome k counts — 1 for a plain evaluation; a bootstrap resample counts a detection
    /// as often as its image was drawn (0 leaves it out), without sorting again.
    public init(descending: [ScoredOutcome], faces: Int, weight: (Int) -> Int = { _ in 1 }) {
        self.faces = faces
        var tp = 0, fp = 0
        var points: [PRPoint] = []
        var i = 0
        // Detections with equal scores enter together: a threshold cannot split them.
        while i < descending.count {
            let s = descending[i].score
            var entered = 0
            while i < descending.count && descending[i].score == s {
                let w = weight(i)
                if descending[i].isTruePositive { tp += w } else { fp += w }
                entered += w
                i += 1
            }
            // A threshold that lets no counted detection through is no point of the curve.
            if entered > 0 {
                points.append(PRPoint(threshold: s, precision: Double(tp) / Double(tp + fp),
                                      recall: faces > 0 ? Double(tp) / Double(faces) : 0))
            }
        }
        truePositives = tp
        falsePositives = fp
        curve = points
    }

    /// At the operating point: every detection kept.
    public var precision: Double { truePositives + falsePositives == 0 ? 0 : Double(truePositives) / Double(truePositives + falsePositives) }
    public var recall: Double { faces == 0 ? 0 : Double(truePositives) / Double(faces) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }

    /// Average precision with all-point interpolation (PASCAL VOC 2010 on): the area
    /// under the curve whose precision at recall r is the best precision at any recall >= r.
    public var averagePrecision: Double {
        guard !curve.isEmpty else { return 0 }
        var envelope = curve.map(\.precision)
        for k in stride(from: envelope.count - 2, through: 0, by: -1) { envelope[k] = max(envelope[k], envelope[k + 1]) }
        var area = 0.0, previousRecall = 0.0
        for (k, p) in curve.enumerated() {
            area += (p.recall - previousRecall) * envelope[k]
            previousRecall = p.recall
        }
        return area
    }
}
