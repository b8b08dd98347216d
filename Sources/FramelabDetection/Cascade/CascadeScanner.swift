/// Evaluates a compiled Haar cascade over every window of one pyramid level, eight
/// neighbouring windows at a time in SIMD lanes.
///
/// OpenCV visits windows `step` pixels apart along a row and skips one extra step after
/// a window that the first stage rejects. That makes which windows are visited depend
/// on earlier results, so the scanner evaluates the first stage for all eight lanes,
/// replays OpenCV's visiting rule over the lanes in order, and runs later stages only
/// for visited lanes that passed — the same windows, the same arithmetic (float feature
/// values scaled by the window's inverse deviation, double stage sums), hence the same hits.
struct CascadeScanner {
    static let lanes = 8
    typealias Ints = SIMD8<Int32>
    typealias Floats = SIMD8<Float>
    typealias Doubles = SIMD8<Double>

    let cascade: CompiledCascade

    /// Scans a level whose integral tables are `sum`/`squares`; appends the top-left
    /// corners (level pixels) of windows that pass every stage.
    func scan(sum: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>, maxX: Int, maxY: Int, step: Int,
              hits: inout [(x: Int, y: Int)]) {
        if step == 1 {
            scanLevel(Dense.self, sum: sum, squares: squares, maxX: maxX, maxY: maxY, hits: &hits)
        } else {
            scanLevel(EveryOther.self, sum: sum, squares: squares, maxX: maxX, maxY: maxY, hits: &hits)
        }
    }

    private func scanLevel<L: LaneLoad>(_ load: L.Type, sum: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>,
                                        maxX: Int, maxY: Int, hits: inout [(x: Int, y: Int)]) {
        guard maxX >= 0, maxY >= 0 else { return }
        let step = L.step
        let stride = cascade.stride
        let c = cascade
        c.offsets.withUnsafeBufferPointer { offsets in
        c.weights.withUnsafeBufferPointer { weights in
        c.stages.withUnsafeBufferPointer { stages in
        c.stumps.withUnsafeBufferPointer { stumps in
        c.trees.withUnsafeBufferPointer { trees in
        c.nodes.withUnsafeBufferPointer { nodes in
        c.leaves.withUnsafeBufferPointer { leaves in
                let ctx = Context(offsets: offsets.baseAddress!, weights: weights.baseAddress!, stages: stages.baseAddress!,
                                  stageCount: stages.count, stumps: stumps.baseAddress, trees: trees.baseAddress,
                                  nodes: nodes.baseAddress, leaves: leaves.baseAddress)
                var y = 0
                while y <= maxY {
                    var nextX = 0
                    var x0 = 0
                    while x0 <= maxX {
                        let at = y * stride + x0
                        scanGroup(L.self, ctx, sum + at, squares + at, x0: x0, y: y, maxX: maxX, step: step,
                                  nextX: &nextX, hits: &hits)
                        x0 += Self.lanes * step
                    }
                    y += step
                }
        }}}}}}}
    }

    /// The compiled cascade's arrays as pointers, valid during one level's scan.
    private struct Context {
        let offsets: UnsafePointer<Int>
        let weights: UnsafePointer<Float>
        let stages: UnsafePointer<CompiledCascade.Stage>
        let stageCount: Int
        let stumps: UnsafePointer<CompiledCascade.Stump>?
        let trees: UnsafePointer<CompiledCascade.Tree>?
        let nodes: UnsafePointer<CompiledCascade.Node>?
        let leaves: UnsafePointer<Float>?
    }

    @inline(__always)
    private func scanGroup<L: LaneLoad>(_ l: L.Type, _ ctx: Context, _ sum: UnsafePointer<Int32>,
                                        _ squares: UnsafePointer<UInt32>, x0: Int, y: Int, maxX: Int, step: Int,
                                        nextX: inout Int, hits: inout [(x: Int, y: Int)]) {
        // Inverse standard deviation of each window (OpenCV's varianceNormFactor).
        let n = cascade.normOffsets
        let s = L.load(sum + n.0) &- L.load(sum + n.1) &- L.load(sum + n.2) &+ L.load(sum + n.3)
        let q = L.loadU(squares + n.0) &- L.loadU(squares + n.1) &- L.loadU(squares + n.2) &+ L.loadU(squares + n.3)
        let sd = Doubles(s)
        let nf = Doubles(repeating: cascade.normArea) * Doubles(q) - sd * sd
        let positive = nf .> 0
        let inverse = Floats(1 / nf.squareRoot())
        let varianceOK = narrow(positive .& (Doubles(repeating: cascade.normArea) * Doubles(inverse) .< 0.1))
        let norm = inverse.replacing(with: 1, where: .!narrow(positive))

        // First stage for all lanes, then OpenCV's visiting rule.
        let firstPass = stagePasses(0, L.self, ctx, sum, norm)
        var active = SIMDMask<SIMD8<Int32>>()
        for k in 0..<Self.lanes {
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
        while stage < ctx.stageCount {
            active = active .& stagePasses(stage, L.self, ctx, sum, norm)
            if !any(active) { return }
            stage += 1
        }
        for k in 0..<Self.lanes where active[k] { hits.append((x0 + k * step, y)) }
    }

    /// Whether each lane's window passes stage `index`.
    @inline(__always)
    private func stagePasses<L: LaneLoad>(_ index: Int, _ l: L.Type, _ ctx: Context, _ sum: UnsafePointer<Int32>,
                                          _ norm: Floats) -> SIMDMask<SIMD8<Int32>> {
        let stage = ctx.stages[index]
        var total = Doubles()
        if stage.stumpCount > 0 {
            let stumps = ctx.stumps! + stage.first
            for i in 0..<stage.stumpCount {
                let st = stumps[i]
                let v = featureValue(st.feature, L.self, ctx, sum) * norm
                let chosen = Floats(repeating: st.right).replacing(with: st.left, where: v .< st.threshold)
                total += Doubles(chosen)
            }
        } else {
            let trees = ctx.trees! + stage.first
            for i in 0..<stage.treeCount {
                total += Doubles(treeValue(trees[i], L.self, ctx, sum, norm))
            }
        }
        return narrow(total .>= Doubles(repeating: Double(stage.threshold)))
    }

    /// A small tree for all lanes. Nodes are visited in order (children follow their
    /// parent), each evaluated only when some lane stands on it; lanes step to a child
    /// or stop at a leaf with masked selects.
    @inline(__always)
    private func treeValue<L: LaneLoad>(_ tree: CompiledCascade.Tree, _ l: L.Type, _ ctx: Context,
                                        _ sum: UnsafePointer<Int32>, _ norm: Floats) -> Floats {
        let nodes = ctx.nodes! + tree.firstNode
        // Node and leaf positions ride in float lanes: small integers are exact there, and
        // float selects compile to blends where integer ones fall back to per-lane stores.
        var index = Floats(repeating: 0)
        for j in 0..<tree.nodeCount {
            let here = index .== Float(j)
            if !any(here) { continue }
            let node = nodes[j]
            let value = featureValue(node.feature, L.self, ctx, sum) * norm
            let next = Floats(repeating: Float(node.right)).replacing(with: Float(node.left), where: value .< node.threshold)
            index.replace(with: next, where: here)
        }
        // Every lane now holds -(its leaf).
        let leaves = ctx.leaves! + tree.firstLeaf
        var out = Floats()
        for k in 0..<tree.leafCount {
            out.replace(with: leaves[k], where: index .== Float(-k))
        }
        return out
    }

    /// The weighted rectangle sums of feature `f` for the eight windows.
    @inline(__always)
    private func featureValue<L: LaneLoad>(_ f: Int, _ l: L.Type, _ ctx: Context, _ sum: UnsafePointer<Int32>) -> Floats {
        let o = ctx.offsets + f * 12
        let w = ctx.weights + f * 3
        let r0 = L.load(sum + o[0]) &- L.load(sum + o[1]) &- L.load(sum + o[2]) &+ L.load(sum + o[3])
        let r1 = L.load(sum + o[4]) &- L.load(sum + o[5]) &- L.load(sum + o[6]) &+ L.load(sum + o[7])
        var v = Floats(r0) * w[0] + Floats(r1) * w[1]
        if w[2] != 0 {
            let r2 = L.load(sum + o[8]) &- L.load(sum + o[9]) &- L.load(sum + o[10]) &+ L.load(sum + o[11])
            v += Floats(r2) * w[2]
        }
        return v
    }
}

/// A double-lane mask as a float-lane mask (same lanes, narrower storage).
@inline(__always)
func narrow(_ mask: SIMDMask<SIMD8<Int64>>) -> SIMDMask<SIMD8<Int32>> {
    let wide = unsafeBitCast(mask, to: SIMD8<Int64>.self)
    return unsafeBitCast(SIMD8<Int32>(truncatingIfNeeded: wide), to: SIMDMask<SIMD8<Int32>>.self)
}

/// How eight windows `step` pixels apart are loaded from an integral row.
protocol LaneLoad {
    static var step: Int { get }
    static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32>
    static func loadU(_ p: UnsafePointer<UInt32>) -> SIMD8<UInt32>
}

/// Windows one pixel apart: one unaligned vector load.
enum Dense: LaneLoad {
    static var step: Int { 1 }
    @inline(__always) static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int32>.self)
    }
    @inline(__always) static func loadU(_ p: UnsafePointer<UInt32>) -> SIMD8<UInt32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt32>.self)
    }
}

/// Windows two pixels apart: a sixteen-wide load, even entries kept.
enum EveryOther: LaneLoad {
    static var step: Int { 2 }
    @inline(__always) static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int32>.self).evenHalf
    }
    @inline(__always) static func loadU(_ p: UnsafePointer<UInt32>) -> SIMD8<UInt32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt32>.self).evenHalf
    }
}
