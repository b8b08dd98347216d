import FramelabDatasets
import FramelabDetection

/// What became of one detection after matching.
public enum MatchOutcome: Sendable, Equatable {
    /// Matched ground-truth face `face` with this IoU.
    case truePositive(face: Int, iou: Double)
    case falsePositive
    /// Overlaps an `ignore` face: neither right nor wrong.
    case ignored
}

/// One frame's detections matched to its faces.
public struct FrameMatch: Sendable, Equatable {
    /// Per detection, in the detector's order.
    public var outcomes: [MatchOutcome]
    /// Per ground-truth face: the detection matched to it, if any.
    public var matchedDetection: [Int?]
    /// Faces to find (ignore faces excluded).
    public var faces: Int

    public var truePositives: Int { outcomes.filter { if case .truePositive = $0 { true } else { false } }.count }
    public var falsePositives: Int { outcomes.filter { $0 == .falsePositive }.count }
    public var misses: Int { faces - truePositives }
}

/// Greedy matching as WIDER FACE's evaluation does it: detections in decreasing score
/// order each take the unmatched face they overlap most, if that IoU reaches the threshold
/// (0.5). A detection whose best overlap is an `ignore` face is ignored.
public enum FaceMatching {
    public static let defaultThreshold = 0.5

    public static func match(_ detections: [FaceDetection], _ faces: [GroundTruthFace],
                             threshold: Double = defaultThreshold) -> FrameMatch {
        let boxes = faces.map { BoundingBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height) }
        var outcomes = [MatchOutcome](repeating: .falsePositive, count: detections.count)
        var taken = [Int?](repeating: nil, count: faces.count)
        // Stable order: higher score first, then the detector's own order.
        let order = detections.indices.sorted { a, b in
            detections[a].score != detections[b].score ? detections[a].score > detections[b].score : a < b
        }
        for d in order {
            var best = -1, bestIoU = threshold
            var bestIgnored = -1, bestIgnoredIoU = threshold
            for (f, box) in boxes.enumerated() where taken[f] == nil {
                let iou = detections[d].box.iou(box)
                if faces[f].ignore {
                    if iou >= bestIgnoredIoU { bestIgnored = f; bestIgnoredIoU = iou }
                } else if iou >= bestIoU && (best < 0 || iou > bestIoU) {
                    best = f; bestIoU = iou
                }
            }
            if best >= 0 {
                taken[best] = d
                outcomes[d] = .truePositive(face: best, iou: bestIoU)
            } else if bestIgnored >= 0 {
                outcomes[d] = .ignored
            }
        }
        return FrameMatch(outcomes: outcomes, matchedDetection: taken, faces: faces.filter { !$0.ignore }.count)
    }
}
