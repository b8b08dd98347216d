import FramelabDatasets
import FramelabDetection

/// One point of FDDB's ROC: false positives (a count over the dataset, FDDB's x axis)
/// against the true positive rate, for detections with score >= threshold.
public struct ROCPoint: Sendable, Equatable {
    public var threshold: Double
    public var falsePositives: Int
    public var truePositiveRate: Double

    public init(threshold: Double, falsePositives: Int, truePositiveRate: Double) {
        self.threshold = threshold
        self.falsePositives = falsePositives
        self.truePositiveRate = truePositiveRate
    }
}

/// FDDB's discrete and continuous ROC curves (Jain and Learned-Miller, 2010): in the
/// discrete score a matched face counts 1; in the continuous score it counts its overlap
/// (IoU) with the detection.
///
/// Matching is FDDB's: per image and per threshold, the detections at or above it are
/// paired with the faces by a maximum-weight bipartite matching on IoU, pairs below 0.5
/// discarded (`BipartiteMatching`). A higher threshold removes detections, which can change
/// the best pairing, so each image's matching is redone at each of its own distinct scores
/// (only when a detection that overlaps a face by 0.5 joins; others are always false
/// positives). An unmatched detection overlapping an `ignore` face by 0.5 counts neither way.
public struct FDDBROC: Sendable {
    public let discrete: [ROCPoint]
    public let continuous: [ROCPoint]

    /// The curves from per-image detections and faces. A frame that carries no faces but
    /// whose match counts some (a result read back without its annotations) falls back
    /// to its recorded greedy outcomes.
    public init(frames: [FrameResult], threshold: Double = FaceMatching.defaultThreshold) {
        var steps: [Step] = []
        var faces = 0
        for f in frames {
            faces += f.match.faces   // a failed frame's faces too: they are misses
            guard f.failure == nil else { continue }
            if f.faces.isEmpty && f.match.faces > 0 {
                steps += Self.recordedSteps(f)
            } else {
                steps += Self.bipartiteSteps(f.detections, f.faces, threshold: threshold)
            }
        }
        self.init(steps: steps, faces: faces)
    }

    /// The curves from outcomes already matched (each detection's score and whether, and
    /// how well, it matched).
    public init(outcomes: [ScoredOutcome], faces: Int) {
        self.init(steps: outcomes.map {
            Step(threshold: $0.score, truePositives: $0.isTruePositive ? 1 : 0, falsePositives: $0.isTruePositive ? 0 : 1,
                 overlap: $0.isTruePositive ? $0.iou : 0)
        }, faces: faces)
    }

    /// A change of the counts when the threshold comes down to `threshold`.
    struct Step {
        var threshold: Double
        var truePositives: Int
        var falsePositives: Int
        var overlap: Double
    }

    private init(steps: [Step], faces: Int) {
        let sorted = steps.sorted { $0.threshold > $1.threshold }
        var fp = 0, tp = 0
        var overlap = 0.0
        var d: [ROCPoint] = [], c: [ROCPoint] = []
        var i = 0
        let n = Double(max(faces, 1))
        // Steps with equal thresholds enter together: a threshold cannot split them.
        while i < sorted.count {
            let s = sorted[i].threshold
            while i < sorted.count && sorted[i].threshold == s {
                tp += sorted[i].truePositives; fp += sorted[i].falsePositives; overlap += sorted[i].overlap
                i += 1
            }
            d.append(ROCPoint(threshold: s, falsePositives: fp, truePositiveRate: Double(tp) / n))
            c.append(ROCPoint(threshold: s, falsePositives: fp, truePositiveRate: overlap / n))
        }
        discrete = d
        continuous = c
    }

    private static func recordedSteps(_ f: FrameResult) -> [Step] {
        zip(f.detections, f.match.outcomes).compactMap { d, o in
            switch o {
            case .truePositive(_, let iou): Step(threshold: d.score, truePositives: 1, falsePositives: 0, overlap: iou)
            case .falsePositive: Step(threshold: d.score, truePositives: 0, falsePositives: 1, overlap: 0)
            case .ignored: nil
            }
        }
    }

    /// One image's counts at each of its distinct scores, as changes from the previous one.
    static func bipartiteSteps(_ detections: [FaceDetection], _ faces: [GroundTruthFace],
                               threshold: Double = FaceMatching.defaultThreshold) -> [Step] {
        let boxes = faces.map { BoundingBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height) }
        let real = faces.indices.filter { !faces[$0].ignore }
        let ignored = faces.indices.filter { faces[$0].ignore }
        let iou = detections.map { d in real.map { d.box.iou(boxes[$0]) } }
        let candidate = iou.map { row in row.contains { $0 >= threshold } }
        let ignorable = detections.map { d in ignored.contains { d.box.iou(boxes[$0]) >= threshold } }
        let order = detections.indices.sorted { detections[$0].score > detections[$1].score }

        var steps: [Step] = []
        var previous = Step(threshold: 0, truePositives: 0, falsePositives: 0, overlap: 0)
        var active: [Int] = []          // detections at or above the current threshold
        var matched = Set<Int>()
        var tp = 0, overlap = 0.0
        var k = 0
        while k < order.count {
            let score = detections[order[k]].score
            var joinedCandidate = false
            while k < order.count && detections[order[k]].score == score {
                active.append(order[k])
                joinedCandidate = joinedCandidate || candidate[order[k]]
                k += 1
            }
            if joinedCandidate {
                let rows = active.filter { candidate[$0] }
                let pairs = BipartiteMatching.maximumWeight(rows.map { iou[$0] }, minimum: threshold)
                matched = Set(pairs.map { rows[$0.row] })
                tp = pairs.count
                overlap = pairs.reduce(0) { $0 + iou[rows[$1.row]][$1.column] }
            }
            let fp = active.filter { !matched.contains($0) && !ignorable[$0] }.count
            steps.append(Step(threshold: score, truePositives: tp - previous.truePositives,
                              falsePositives: fp - previous.falsePositives, overlap: overlap - previous.overlap))
            previous = Step(threshold: score, truePositives: tp, falsePositives: fp, overlap: overlap)
        }
        return steps
    }
}
