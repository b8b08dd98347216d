/// The Haar cascade's window scan, one row of windows per call, eight neighbouring windows
/// at a time in SIMD lanes: a kernel like the filters' (`KernelTable.cascadeRow`), so each
/// instruction-set level runs it compiled for that level. FramelabDetection's
/// `CompiledCascade` lays a cascade out in the plain values below and `HaarCascadeEvaluator`
/// builds the pyramid and integral images and calls this for each row of each level.
///
/// OpenCV visits windows `step` pixels apart along a row and skips one extra step after
/// a window that the first stage rejects. That makes which windows are visited depend on
/// earlier results, so the scan evaluates the first stage for all eight lanes, replays
/// OpenCV's visiting rule over the lanes in order, and runs later stages only for visited
/// lanes that passed: the same windows and the same decisions (feature values in float
/// scaled by the window's inverse deviation, stage sums compared as OpenCV's double sums
/// compare; `CascadeStage`), hence the same hits.
///
/// A level module calls `cascadeRow` with lane types of its own (`CascadeLanes`): the
/// scan's generic functions are then specialised under names that carry that module's
/// name. Specialised on shared types, they were emitted under names every level module
/// shares, and the linker could have run a level's copy on a CPU without it
/// (`KernelLevelTests`).

/// A stage: either `stumpCount` stumps from `first`, or `treeCount` trees from `first`.
///
/// OpenCV adds a stage's values in double. The scan adds them in float, half the vector
/// width, and keeps OpenCV's decisions exactly: a float sum of n values is within
/// n·2⁻²⁴·Σ|values| of the exact sum (Higham, "Accuracy and Stability of Numerical
/// Algorithms", 2nd ed., §4.2), and the double sum is exact here (at most a few hundred
/// floats whose magnitudes span far fewer than 29 binades). So a float sum at or above
/// `surePass` passes, one below `sureFail` fails, and only one in between, rare, is added
/// again in double.
public struct CascadeStage {
    public var threshold: Float
    public var first: Int
    public var stumpCount: Int
    public var treeCount: Int
    public var surePass: Float
    public var sureFail: Float

    /// A stage whose classifiers' largest leaf magnitudes are `largestValues`: the margins
    /// are computed in double, widened by 1%, and rounded away from the threshold (a NaN or
    /// infinite leaf leaves every sum to the double path).
    public init(threshold: Float, first: Int, stumpCount: Int, treeCount: Int, largestValues: [Float]) {
        self.threshold = threshold
        self.first = first
        self.stumpCount = stumpCount
        self.treeCount = treeCount
        let n = Double(largestValues.count)
        let bound = n * 0x1p-24 * largestValues.reduce(0.0) { $0 + Double($1) } * 1.01
        surePass = Float(Double(threshold) + bound).nextUp
        sureFail = Float(Double(threshold) - bound).nextDown
    }
}

/// A one-node classifier: `left` when the feature's value is below `threshold`, else `right`.
public struct CascadeStump {
    public var feature: Int
    public var threshold: Float
    public var left: Float
    public var right: Float

    public init(feature: Int, threshold: Float, left: Float, right: Float) {
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.right = right
    }
}

/// A tree's nodes and leaves inside the flat arrays. Child indices stay relative to the
/// tree's first node, as OpenCV's are (a child <= 0 is leaf −child); children come after
/// their parents.
public struct CascadeTree {
    public var firstNode: Int
    public var nodeCount: Int
    public var firstLeaf: Int
    public var leafCount: Int
    /// Whether `pairOutcomes` holds the tree: the common two-node tree (node 1 a child of
    /// node 0, as in every tree of haarcascade_frontalface_alt2).
    public var isPair: Bool
    /// A pair tree's value for each pair of node outcomes, "left" meaning value < threshold:
    /// (0 left, 1 left), (0 left, 1 right), (0 right, 1 left), (0 right, 1 right). Both nodes
    /// are then evaluated for every lane and the value selected, without a walk.
    public var pairOutcomes: SIMD4<Float>

    public init(firstNode: Int, nodeCount: Int, firstLeaf: Int, leafCount: Int, pairOutcomes: SIMD4<Float>?) {
        self.firstNode = firstNode
        self.nodeCount = nodeCount
        self.firstLeaf = firstLeaf
        self.leafCount = leafCount
        isPair = pairOutcomes != nil
        self.pairOutcomes = pairOutcomes ?? SIMD4()
    }
}

public struct CascadeNode {
    public var feature: Int
    public var threshold: Float
    public var left: Int32
    public var right: Int32

    public init(feature: Int, threshold: Float, left: Int32, right: Int32) {
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.right = right
    }
}

/// A compiled cascade's arrays as pointers, valid during one scan, and its variance window.
public struct CascadeLayout {
    /// Per feature, three rectangles of four corner offsets from the window's top-left
    /// integral entry (top-left, top-right, bottom-left, bottom-right); unused rectangles
    /// have weight 0.
    public var offsets: UnsafePointer<Int>
    public var weights: UnsafePointer<Float>
    public var stages: UnsafePointer<CascadeStage>
    public var stageCount: Int
    public var stumps: UnsafePointer<CascadeStump>?
    public var trees: UnsafePointer<CascadeTree>?
    public var nodes: UnsafePointer<CascadeNode>?
    public var leaves: UnsafePointer<Float>?
    /// Corners of the variance window (the window less a one-pixel border, as OpenCV's).
    public var normOffsets: SIMD4<Int>
    public var normArea: Double

    public init(offsets: UnsafePointer<Int>, weights: UnsafePointer<Float>, stages: UnsafePointer<CascadeStage>, stageCount: Int,
                stumps: UnsafePointer<CascadeStump>?, trees: UnsafePointer<CascadeTree>?, nodes: UnsafePointer<CascadeNode>?,
                leaves: UnsafePointer<Float>?, normOffsets: SIMD4<Int>, normArea: Double) {
        self.offsets = offsets
        self.weights = weights
        self.stages = stages
        self.stageCount = stageCount
        self.stumps = stumps
        self.trees = trees
        self.nodes = nodes
        self.leaves = leaves
        self.normOffsets = normOffsets
        self.normArea = normArea
    }
}

extension PortableKernels {
    /// One row of windows: `sum` and `squares` point at the integral entries of the row's
    /// first window (its top-left corner), windows are `step` (1 or 2) pixels apart up to
    /// `maxX`, and `layout` points at a `CascadeLayout`. Writes the x of each window that
    /// passes every stage to `hits` (room for maxX + 1) and returns how many. The tables
    /// must have room for eight entries past `maxX` (`IntegralImages` pads them).
    ///
    /// At step 2 the tables' rows are split, even entries first and odd entries after
    /// them, and the layout's offsets are for that order (FramelabDetection's
    /// `SplitRows`): eight windows two pixels apart then read eight consecutive entries per
    /// corner, one vector load, as at step 1 (a sixteen-wide load with the even lanes
    /// picked out cost three times as many instructions). `Dense` and `Sparse` are the
    /// caller's lane types for steps 1 and 2.
    @inlinable @inline(__always)
    public static func cascadeRow<Dense: CascadeLanes, Sparse: CascadeLanes>(
        _ layout: UnsafeRawPointer, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>, _ maxX: Int, _ step: Int,
        _ hits: UnsafeMutablePointer<Int32>, _ dense: Dense.Type, _ sparse: Sparse.Type) -> Int {
        let c = layout.load(as: CascadeLayout.self)
        return step == 1 ? CascadeScan<Dense>.row(c, sum, squares, maxX, hits)
                         : CascadeScan<Sparse>.row(c, sum, squares, maxX, hits)
    }

    /// `cascadeRow` at this module's own level (the portable table's entry).
    public static func cascadeRow(_ layout: UnsafeRawPointer, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>,
                                  _ maxX: Int, _ step: Int, _ hits: UnsafeMutablePointer<Int32>) -> Int {
        cascadeRow(layout, sum, squares, maxX, step, hits, PortableDenseLanes.self, PortableSparseLanes.self)
    }
}

/// Eight windows `step` pixels apart, whose corners are eight consecutive table entries
/// (at step 2 in rows split into even and odd entries: `cascadeRow`). Each level module
/// declares its own two, and may give the feature arithmetic in its own instructions.
public protocol CascadeLanes {
    static var step: Int { get }
    /// Rectangle sums times a weight: `r` converted to float as a conversion instruction
    /// rounds it, then multiplied.
    static func weighted(_ r: SIMD8<Int32>, _ w: Float) -> SIMD8<Float>
    /// a + b, lane by lane.
    static func add(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
}

extension CascadeLanes {
    /// Swift's SIMD operators (arm64 uses these). On x86 the optimiser regrouped their
    /// lanes across the feature's products (blends, permutes, scalar multiplies: about as
    /// many instructions again), so every x86 level gives these two in intrinsics
    /// (`PortableCascadeLanes`; `AVX2CascadeLanes`, which the avx512 level adopts too).
    @inlinable @inline(__always)
    public static func weighted(_ r: SIMD8<Int32>, _ w: Float) -> SIMD8<Float> {
        exactFloats(r) * SIMD8(repeating: w)
    }

    @inlinable @inline(__always)
    public static func add(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }

    @inlinable @inline(__always)
    static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int32>.self)
    }

    @inlinable @inline(__always)
    static func loadU(_ p: UnsafePointer<UInt32>) -> SIMD8<UInt32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt32>.self)
    }
}

/// The scan of one row with windows loaded by `L`.
@usableFromInline
enum CascadeScan<L: CascadeLanes> {
    @usableFromInline typealias Ints = SIMD8<Int32>
    @usableFromInline typealias Floats = SIMD8<Float>
    @usableFromInline typealias Doubles = SIMD8<Double>

    @inlinable @inline(__always)
    static func row(_ c: CascadeLayout, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>, _ maxX: Int,
                    _ hits: UnsafeMutablePointer<Int32>) -> Int {
        var count = 0
        var nextX = 0
        var x0 = 0, entry = 0
        // A group's eight windows span 8·step pixels and 8 entries (split rows at step 2).
        while x0 <= maxX {
            group(c, sum + entry, squares + entry, x0, maxX, &nextX, hits, &count)
            x0 += 8 * L.step
            entry += 8
        }
        return count
    }

    /// Eight windows from `x0`: OpenCV's visiting rule after the first stage, then the
    /// later stages while some visited lane still passes.
    @inlinable @inline(__always)
    static func group(_ c: CascadeLayout, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>, _ x0: Int,
                      _ maxX: Int, _ nextX: inout Int, _ hits: UnsafeMutablePointer<Int32>, _ count: inout Int) {
        let step = L.step
        // Inverse standard deviation of each window (OpenCV's varianceNormFactor).
        let n = c.normOffsets
        let s = L.load(sum + n[0]) &- L.load(sum + n[1]) &- L.load(sum + n[2]) &+ L.load(sum + n[3])
        let q = L.loadU(squares + n[0]) &- L.loadU(squares + n[1]) &- L.loadU(squares + n[2]) &+ L.loadU(squares + n[3])
        let sd = Doubles(s)
        let area = Doubles(repeating: c.normArea)
        let nf = area * Doubles(q) - sd * sd
        let positive = nf .> 0
        let inverse = Floats(1 / nf.squareRoot())
        let varianceOK = narrow(positive .& (area * Doubles(inverse) .< 0.1))
        let norm = inverse.replacing(with: 1, where: .!narrow(positive))

        let firstPass = stagePasses(c, 0, sum, norm)
        var active = SIMDMask<Ints>()
        for k in 0..<8 {
            let x = x0 + k * step
            if x > maxX { break }
            if x < nextX { continue }
            if !varianceOK[k] {
                nextX = x + step
            } else if !firstPass[k] {
                nextX = x + 2 * step
            } else {
                nextX = x + step
                active[k] = true
            }
        }
        guard any(active) else { return }
        var stage = 1
        while stage < c.stageCount {
            active = active .& stagePasses(c, stage, sum, norm)
            if !any(active) { return }
            stage += 1
        }
        for k in 0..<8 where active[k] {
            hits[count] = Int32(truncatingIfNeeded: x0 + k * step)
            count += 1
        }
    }

    /// Whether each lane's window passes stage `index`: the stage's values added in float,
    /// and again in double, as OpenCV adds them, only when some lane's float sum is too
    /// close to the threshold to decide (`CascadeStage`).
    @inlinable @inline(__always)
    static func stagePasses(_ c: CascadeLayout, _ index: Int, _ sum: UnsafePointer<Int32>, _ norm: Floats) -> SIMDMask<Ints> {
        let stage = c.stages[index]
        let total = stageSum(c, stage, FloatLanes.self, sum, norm).lanes
        let pass = total .>= Floats(repeating: stage.surePass)
        let fail = total .< Floats(repeating: stage.sureFail)
        if all(pass .| fail) { return pass }
        let exact = stageSum(c, stage, DoubleLanes.self, sum, norm).lanes
        return narrow(exact .>= Doubles(repeating: Double(stage.threshold)))
    }

    /// The sum of a stage's values for each lane, added in `Sum`'s lanes.
    @inlinable @inline(__always)
    static func stageSum<Sum: CascadeStageSum>(_ c: CascadeLayout, _ stage: CascadeStage, _ type: Sum.Type,
                                                _ sum: UnsafePointer<Int32>, _ norm: Floats) -> Sum {
        var total = Sum()
        if stage.stumpCount > 0 {
            let stumps = c.stumps! + stage.first
            for i in 0..<stage.stumpCount {
                let st = stumps[i]
                let v = featureValue(c, st.feature, sum) * norm
                total.add(Floats(repeating: st.right).replacing(with: st.left, where: v .< Floats(repeating: st.threshold)))
            }
        } else {
            let trees = c.trees! + stage.first
            for i in 0..<stage.treeCount {
                let tree = trees[i]
                total.add(tree.isPair ? pairValue(c, tree, sum, norm) : treeValue(c, tree, sum, norm))
            }
        }
        return total
    }

    /// A pair tree (`CascadeTree.isPair`) for all lanes: both nodes, then selects. Inlined
    /// into the stage loop by force (`@_transparent`): as a call, with the layout passed by
    /// value, it cost more than its work, and `@inline(__always)` did not inline the
    /// specialisation.
    @usableFromInline @_transparent
    static func pairValue(_ c: CascadeLayout, _ tree: CascadeTree, _ sum: UnsafePointer<Int32>, _ norm: Floats) -> Floats {
        let nodes = c.nodes! + tree.firstNode
        let o = tree.pairOutcomes
        let root = nodes[0], child = nodes[1]
        let rootLeft = featureValue(c, root.feature, sum) * norm .< Floats(repeating: root.threshold)
        let childLeft = featureValue(c, child.feature, sum) * norm .< Floats(repeating: child.threshold)
        let ifRootLeft = Floats(repeating: o[1]).replacing(with: o[0], where: childLeft)
        let ifRootRight = Floats(repeating: o[3]).replacing(with: o[2], where: childLeft)
        return ifRootRight.replacing(with: ifRootLeft, where: rootLeft)
    }

    /// Any other small tree for all lanes: its nodes in order (children follow their
    /// parent), each evaluated only when some lane stands on it; lanes step to a child or
    /// stop at a leaf with masked selects.
    @inlinable @inline(__always)
    static func treeValue(_ c: CascadeLayout, _ tree: CascadeTree, _ sum: UnsafePointer<Int32>, _ norm: Floats) -> Floats {
        let nodes = c.nodes! + tree.firstNode
        // Node and leaf positions ride in float lanes: small integers are exact there, and
        // float selects compile to blends where integer ones fall back to per-lane stores.
        var index = Floats(repeating: 0)
        for j in 0..<tree.nodeCount {
            let here = index .== Float(j)
            if !any(here) { continue }
            let node = nodes[j]
            let value = featureValue(c, node.feature, sum) * norm
            let next = Floats(repeating: Float(node.right)).replacing(with: Float(node.left), where: value .< node.threshold)
            index.replace(with: next, where: here)
        }
        // Every lane now holds -(its leaf).
        let leaves = c.leaves! + tree.firstLeaf
        var out = Floats()
        for k in 0..<tree.leafCount {
            out.replace(with: leaves[k], where: index .== Float(-k))
        }
        return out
    }

    /// The weighted rectangle sums of feature `f` for the eight windows.
    @inlinable @inline(__always)
    static func featureValue(_ c: CascadeLayout, _ f: Int, _ sum: UnsafePointer<Int32>) -> Floats {
        let o = c.offsets + f &* 12
        let w = c.weights + f &* 3
        let r0 = L.load(sum + o[0]) &- L.load(sum + o[1]) &- L.load(sum + o[2]) &+ L.load(sum + o[3])
        let r1 = L.load(sum + o[4]) &- L.load(sum + o[5]) &- L.load(sum + o[6]) &+ L.load(sum + o[7])
        var v = L.add(L.weighted(r0, w[0]), L.weighted(r1, w[1]))
        if w[2] != 0 {
            let r2 = L.load(sum + o[8]) &- L.load(sum + o[9]) &- L.load(sum + o[10]) &+ L.load(sum + o[11])
            v = L.add(v, L.weighted(r2, w[2]))
        }
        return v
    }

    /// A double-lane mask as a float-lane mask (same lanes, narrower storage).
    @inlinable @inline(__always)
    static func narrow(_ mask: SIMDMask<SIMD8<Int64>>) -> SIMDMask<Ints> {
        let wide = unsafeBitCast(mask, to: SIMD8<Int64>.self)
        return unsafeBitCast(Ints(truncatingIfNeeded: wide), to: SIMDMask<Ints>.self)
    }
}

/// Lanes a stage's values are added in: float or, as OpenCV does, double.
@usableFromInline
protocol CascadeStageSum {
    init()
    mutating func add(_ values: SIMD8<Float>)
}

@usableFromInline
struct FloatLanes: CascadeStageSum {
    @usableFromInline var lanes = SIMD8<Float>()
    @inlinable @inline(__always) init() {}
    @inlinable @inline(__always) mutating func add(_ values: SIMD8<Float>) { lanes += values }
}

@usableFromInline
struct DoubleLanes: CascadeStageSum {
    @usableFromInline var lanes = SIMD8<Double>()
    @inlinable @inline(__always) init() {}
    @inlinable @inline(__always) mutating func add(_ values: SIMD8<Float>) { lanes += SIMD8<Double>(values) }
}
