/// Greedy non-maximum suppression, the step every network detector here ends with: boxes
/// in descending score order, each kept unless it overlaps a kept one by more than
/// `threshold`.
public enum NonMaximumSuppression {
    /// How overlap is measured: IoU (intersection over union), or intersection over the
    /// smaller box, which MTCNN's last stage uses so that a box inside another goes too.
    public enum Overlap: Sendable {
        case union
        case minimum
    }

    /// Candidates considered at most (the best-scoring ones): the pairwise comparison is
    /// quadratic, and a network on noise can propose tens of thousands of boxes.
    public static let candidateLimit = 5000

    /// The indices of `boxes` kept, best score first.
    public static func keep(_ boxes: [BoundingBox], scores: [Double], threshold: Double,
                            overlap: Overlap = .union) -> [Int] {
        precondition(boxes.count == scores.count, "one score per box")
        let order = boxes.indices.sorted { scores[$0] > scores[$1] }.prefix(candidateLimit)
        var kept: [Int] = []
        for i in order where !kept.contains(where: { measure(boxes[i], boxes[$0], overlap) > threshold }) {
            kept.append(i)
        }
        return kept
    }

    /// The faces kept, best score first.
    public static func faces(_ faces: [FaceDetection], threshold: Double,
                             overlap: Overlap = .union) -> [FaceDetection] {
        keep(faces.map(\.box), scores: faces.map(\.score), threshold: threshold, overlap: overlap).map { faces[$0] }
    }

    static func measure(_ a: BoundingBox, _ b: BoundingBox, _ overlap: Overlap) -> Double {
        switch overlap {
        case .union:
            return a.iou(b)
        case .minimum:
            let w = min(a.maxX, b.maxX) - max(a.x, b.x)
            let h = min(a.maxY, b.maxY) - max(a.y, b.y)
            let smaller = min(a.area, b.area)
            guard w > 0, h > 0, smaller > 0 else { return 0 }
            return w * h / smaller
        }
    }
}
