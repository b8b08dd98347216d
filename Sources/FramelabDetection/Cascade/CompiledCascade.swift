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
    var weights: [Float] = []
    var stages: [Stage] = []
    var stumps: [Stump] = []
    var trees: [Tree] = []
    var nodes: [Node] = []
    var leaves: [Float] = []
    /// Corners of the variance window (the window less a one-pixel border, as OpenCV).
    var normOffsets: (Int, Int, Int, Int)
    var normArea: Double
    let stride: Int
    let tiltedBase: Int

    /// A stage: either `stumpCount` stumps from `first` in `stumps`, or `treeCount` trees from `first` in `trees`.
    struct Stage {
        var threshold: Float
        var first: Int
        var stumpCount: Int
        var treeCount: Int
    }

    struct Stump {
        var feature: Int
        var threshold: Float
        var left: Float
        var right: Float
    }

    /// A tree's nodes and leaves inside the flat arrays. Child indices stay relative to
    /// the tree's first node, as OpenCV's are; children come after their parents.
    struct Tree {
        var firstNode: Int
        var nodeCount: Int
        var firstLeaf: Int
        var leafCount: Int
    }

    struct Node {
        var feature: Int
        var threshold: Float
        var left: Int32
        var right: Int32
    }

    init(_ cascade: HaarCascade, stride: Int, tiltedBase: Int) {
        self.stride = stride
        self.tiltedBase = tiltedBase
        for f in cascade.features {
            for k in 0..<3 {
                if k < f.rects.count {
                    let r = f.rects[k]
                    if f.tilted {
                        offsets += [r.y * stride + r.x, (r.y + r.height) * stride + r.x - r.height,
                                    (r.y + r.width) * stride + r.x + r.width,
                                    (r.y + r.width + r.height) * stride + r.x + r.width - r.height].map { $0 + tiltedBase }
                    } else {
                        offsets += [r.y * stride + r.x, r.y * stride + r.x + r.width,
                                    (r.y + r.height) * stride + r.x, (r.y + r.height) * stride + r.x + r.width]
                    }
                    weights.append(r.weight)
                } else {
                    offsets += [0, 0, 0, 0]
                    weights.append(0)
                }
            }
        }
        for s in cascade.stages {
            if s.classifiers.allSatisfy(\.isStump) {
                stages.append(Stage(threshold: s.threshold, first: stumps.count, stumpCount: s.classifiers.count, treeCount: 0))
                stumps += s.classifiers.map {
                    Stump(feature: $0.nodes[0].feature, threshold: $0.nodes[0].threshold, left: $0.leaves[0], right: $0.leaves[1])
                }
            } else {
                stages.append(Stage(threshold: s.threshold, first: trees.count, stumpCount: 0, treeCount: s.classifiers.count))
                for c in s.classifiers {
                    trees.append(Tree(firstNode: nodes.count, nodeCount: c.nodes.count, firstLeaf: leaves.count,
                                      leafCount: c.leaves.count))
                    nodes += c.nodes.map { Node(feature: $0.feature, threshold: $0.threshold, left: Int32($0.left),
                                                right: Int32($0.right)) }
                    leaves += c.leaves
                }
            }
        }
        let w = cascade.windowWidth, h = cascade.windowHeight
        normOffsets = (1 * stride + 1, 1 * stride + (w - 1), (h - 1) * stride + 1, (h - 1) * stride + (w - 1))
        normArea = Double((w - 2) * (h - 2))
    }
}
