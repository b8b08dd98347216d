import FramelabKernels

/// A `HaarCascade` laid out for evaluation on one integral-image stride: each feature's
/// rectangle corners become offsets from the window's top-left entry, so a feature is
/// a few loads at fixed distances from the window — the same loads for neighbouring
/// windows, which is what lets `CascadeScanner` evaluate eight windows at once.
/// Everything is in flat arrays of plain values, reached through pointers while scanning.
///
/// Tilted features use OpenCV's rotated corners, (x, y), (x − h, y + h), (x + w, y + w)
/// and (x + w − h, y + w + h), in the rotated-sum table that follows the upright one by
/// `tiltedBase` entries (`IntegralImages`), so they are evaluated exactly like upright ones.
struct CompiledCascade {
    /// Per feature, three rectangles of four corner offsets (top-left, top-right,
    /// bottom-left, bottom-right); unused rectangles have weight 0.
    var offsets: [Int] = []
    /// The same corners in tables with split rows (`SplitRows`), for levels scanned at step 2.
    var splitOffsets: [Int] = []
    var weights: [Float] = []
    var stages: [CascadeStage] = []
    var stumps: [CascadeStump] = []
    var trees: [CascadeTree] = []
    var nodes: [CascadeNode] = []
    var leaves: [Float] = []
    /// Corners of the variance window (the window less a one-pixel border, as OpenCV).
    var normOffsets: SIMD4<Int>
    var splitNormOffsets: SIMD4<Int>
    var normArea: Double
    let stride: Int
    let tiltedBase: Int

    init(_ cascade: HaarCascade, stride: Int, tiltedBase: Int) {
        self.stride = stride
        self.tiltedBase = tiltedBase
        let split = SplitRows(stride: stride)
        for f in cascade.features {
            for k in 0..<3 {
                if k < f.rects.count {
                    let r = f.rects[k]
                    // Corners as (row, column) from the window's top-left entry.
                    let corners = f.tilted
                        ? [(r.y, r.x), (r.y + r.height, r.x - r.height), (r.y + r.width, r.x + r.width),
                           (r.y + r.width + r.height, r.x + r.width - r.height)]
                        : [(r.y, r.x), (r.y, r.x + r.width), (r.y + r.height, r.x), (r.y + r.height, r.x + r.width)]
                    let base = f.tilted ? tiltedBase : 0
                    offsets += corners.map { base + $0.0 * stride + $0.1 }
                    splitOffsets += corners.map { base + split.offset(dy: $0.0, dx: $0.1) }
                    weights.append(r.weight)
                } else {
                    offsets += [0, 0, 0, 0]
                    splitOffsets += [0, 0, 0, 0]
                    weights.append(0)
                }
            }
        }
        for s in cascade.stages {
            let largest = s.classifiers.map { $0.leaves.map(\.magnitude).max() ?? 0 }
            if s.classifiers.allSatisfy(\.isStump) {
                stages.append(CascadeStage(threshold: s.threshold, first: stumps.count, stumpCount: s.classifiers.count,
                                           treeCount: 0, largestValues: largest))
                stumps += s.classifiers.map {
                    CascadeStump(feature: $0.nodes[0].feature, threshold: $0.nodes[0].threshold, left: $0.leaves[0], right: $0.leaves[1])
                }
            } else {
                stages.append(CascadeStage(threshold: s.threshold, first: trees.count, stumpCount: 0,
                                           treeCount: s.classifiers.count, largestValues: largest))
                for c in s.classifiers {
                    trees.append(CascadeTree(firstNode: nodes.count, nodeCount: c.nodes.count, firstLeaf: leaves.count,
                                             leafCount: c.leaves.count, pairOutcomes: Self.pairOutcomes(c)))
                    nodes += c.nodes.map { CascadeNode(feature: $0.feature, threshold: $0.threshold, left: Int32($0.left),
                                                       right: Int32($0.right)) }
                    leaves += c.leaves
                }
            }
        }
        let w = cascade.windowWidth, h = cascade.windowHeight
        normOffsets = SIMD4(1 * stride + 1, 1 * stride + (w - 1), (h - 1) * stride + 1, (h - 1) * stride + (w - 1))
        splitNormOffsets = SIMD4(split.offset(dy: 1, dx: 1), split.offset(dy: 1, dx: w - 1),
                                 split.offset(dy: h - 1, dx: 1), split.offset(dy: h - 1, dx: w - 1))
        normArea = Double((w - 2) * (h - 2))
    }

    /// The arrays as a `CascadeLayout` (which the row kernel reads) for tables whose rows
    /// are split (`SplitRows`) or not, valid during `body`.
    func withLayout<R>(splitRows: Bool, _ body: (UnsafeRawPointer) -> R) -> R {
        let normOffsets = splitRows ? splitNormOffsets : self.normOffsets
        return (splitRows ? splitOffsets : offsets).withUnsafeBufferPointer { offsets in
        weights.withUnsafeBufferPointer { weights in
        stages.withUnsafeBufferPointer { stages in
        stumps.withUnsafeBufferPointer { stumps in
        trees.withUnsafeBufferPointer { trees in
        nodes.withUnsafeBufferPointer { nodes in
        leaves.withUnsafeBufferPointer { leaves in
            var layout = CascadeLayout(offsets: offsets.baseAddress!, weights: weights.baseAddress!, stages: stages.baseAddress!,
                                       stageCount: stages.count, stumps: stumps.baseAddress, trees: trees.baseAddress,
                                       nodes: nodes.baseAddress, leaves: leaves.baseAddress, normOffsets: normOffsets,
                                       normArea: normArea)
            return withUnsafePointer(to: &layout) { body(UnsafeRawPointer($0)) }
        }}}}}}}
    }
}

extension CompiledCascade {
    /// `CascadeTree.pairOutcomes` of `c`, or nil when it is not a two-node tree whose node 1 is a
    /// child of node 0 and whose other children are leaves (child index <= 0: leaf −index).
    static func pairOutcomes(_ c: HaarCascade.WeakClassifier) -> SIMD4<Float>? {
        guard c.nodes.count == 2 else { return nil }
        let root = c.nodes[0], child = c.nodes[1]
        func leaf(_ index: Int) -> Float? { index <= 0 && -index < c.leaves.count ? c.leaves[-index] : nil }
        guard let childLeft = leaf(child.left), let childRight = leaf(child.right) else { return nil }
        if root.left == 1, let right = leaf(root.right) { return SIMD4(childLeft, childRight, right, right) }
        if root.right == 1, let left = leaf(root.left) { return SIMD4(left, left, childLeft, childRight) }
        return nil
    }
}
