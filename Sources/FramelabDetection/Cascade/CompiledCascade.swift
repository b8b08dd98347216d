/// A `HaarCascade` laid out for evaluation on one integral-image stride: each feature's
/// rectangle corners become offsets from the window's top-left entry, so a feature is
/// a few loads at fixed distances from the window — the same loads for neighbouring
/// windows, which is what lets `CascadeScanner` evaluate eight windows at once.
struct CompiledCascade {
    /// Per feature, three rectangles of four corner offsets (top-left, top-right,
    /// bottom-left, bottom-right); unused rectangles have weight 0.
    var offsets: [Int]
    var weights: [Float]
    var stages: [CompiledStage]
    /// Corners of the variance window (the window less a one-pixel border, as OpenCV).
    var normOffsets: (Int, Int, Int, Int)
    var normArea: Double
    let stride: Int

    struct CompiledStage {
        var threshold: Float
        /// Stump-only stages are evaluated on the fast path.
        var stumps: [Stump]
        var trees: [HaarCascade.WeakClassifier]
    }

    struct Stump {
        var feature: Int
        var threshold: Float
        var left: Float
        var right: Float
    }

    init(_ cascade: HaarCascade, stride: Int) {
        self.stride = stride
        var offsets: [Int] = []
        var weights: [Float] = []
        for f in cascade.features {
            for k in 0..<3 {
                if k < f.rects.count {
                    let r = f.rects[k]
                    offsets += [r.y * stride + r.x, r.y * stride + r.x + r.width,
                                (r.y + r.height) * stride + r.x, (r.y + r.height) * stride + r.x + r.width]
                    weights.append(r.weight)
                } else {
                    offsets += [0, 0, 0, 0]
                    weights.append(0)
                }
            }
        }
        self.offsets = offsets
        self.weights = weights
        stages = cascade.stages.map { s in
            if s.classifiers.allSatisfy(\.isStump) {
                return CompiledStage(threshold: s.threshold, stumps: s.classifiers.map {
                    Stump(feature: $0.nodes[0].feature, threshold: $0.nodes[0].threshold,
                          left: $0.leaves[0], right: $0.leaves[1])
                }, trees: [])
            }
            return CompiledStage(threshold: s.threshold, stumps: [], trees: s.classifiers)
        }
        let w = cascade.windowWidth, h = cascade.windowHeight
        normOffsets = (1 * stride + 1, 1 * stride + (w - 1), (h - 1) * stride + 1, (h - 1) * stride + (w - 1))
        normArea = Double((w - 2) * (h - 2))
    }
}
