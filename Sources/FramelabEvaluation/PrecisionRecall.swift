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
        self.faces = faces
        let sorted = outcomes.sorted { $0.score > $1.score }
        var tp = 0, fp = 0
        var points: [PRPoint] = []
        var i = 0
        // Detections with equal scores enter together: a threshold cannot split them.
        while i < sorted.count {
            let s = sorted[i].score
            while i < sorted.count && sorted[i].score == s {
                if sorted[i].isTruePositive { tp += 1 } else { fp += 1 }
                i += 1
            }
            points.append(PRPoint(threshold: s, precision: Double(tp) / Double(tp + fp),
                                  recall: faces > 0 ? Double(tp) / Double(faces) : 0))
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
