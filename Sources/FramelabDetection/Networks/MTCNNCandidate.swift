import Foundation

/// A face box moving through MTCNN's stages, in image pixels, corners as MTCNN keeps them
/// (x2, y2 inclusive), with the box regression its last network predicted and, after
/// O-Net, the five landmarks (left eye, right eye, nose, left and right mouth corner as
/// they appear in the image).
struct MTCNNCandidate {
    var x1: Double, y1: Double, x2: Double, y2: Double
    var score: Double
    /// Corner offsets in box widths and heights: dx1, dy1, dx2, dy2.
    var regression: (Double, Double, Double, Double) = (0, 0, 0, 0)
    var landmarks: [ImagePoint] = []

    var box: BoundingBox { BoundingBox(x: x1, y: y1, width: x2 - x1, height: y2 - y1) }
    var isFinite: Bool { [x1, y1, x2, y2, score].allSatisfy(\.isFinite) }

    /// Moves the corners by the regression. P-Net's step measures the box as x2 - x1, the
    /// later ones as x2 - x1 + 1 (MTCNN's own convention for each stage).
    func regressed(inclusive: Bool) -> MTCNNCandidate {
        let w = x2 - x1 + (inclusive ? 1 : 0), h = y2 - y1 + (inclusive ? 1 : 0)
        var c = self
        c.x1 = x1 + regression.0 * w
        c.y1 = y1 + regression.1 * h
        c.x2 = x2 + regression.2 * w
        c.y2 = y2 + regression.3 * h
        return c
    }

    /// The square on the box's centre with its longer side, corners truncated toward zero
    /// (the next network sees a square crop).
    func squared() -> MTCNNCandidate {
        let w = x2 - x1, h = y2 - y1, side = max(w, h)
        var c = self
        c.x1 = (x1 + w / 2 - side / 2).rounded(.towardZero)
        c.y1 = (y1 + h / 2 - side / 2).rounded(.towardZero)
        c.x2 = (c.x1 + side).rounded(.towardZero)
        c.y2 = (c.y1 + side).rounded(.towardZero)
        return c
    }

    /// The candidates kept by non-maximum suppression, best first.
    static func suppress(_ candidates: [MTCNNCandidate], threshold: Double,
                         overlap: NonMaximumSuppression.Overlap = .union) -> [MTCNNCandidate] {
        NonMaximumSuppression.keep(candidates.map(\.box), scores: candidates.map(\.score), threshold: threshold,
                                   overlap: overlap).map { candidates[$0] }
    }
}
