/// The assignment step of FDDB's official protocol: faces and detections paired so that the
/// summed overlap is largest, as FDDB's evaluation program does it (its `runHungarian`):
/// faces whose overlaps are all zero and detections whose overlaps are all zero are dropped,
/// the Hungarian algorithm maximises the total over what is left, and every assigned pair
/// with an overlap above zero is kept, however small (the 0.5 cut is applied afterwards,
/// only to the discrete score).
///
/// The solver is `BipartiteMatching.minimumCostAssignment` (Kuhn–Munkres with potentials),
/// the one Hungarian algorithm in Framelab, on costs −overlap. When two assignments have the
/// same total, which one is returned is the solver's choice, as in FDDB's program (whose
/// choice can differ): the total is the same, the count of pairs above 0.5 may not be.
enum HungarianAssignment {
    struct Pair: Equatable {
        var row: Int
        var column: Int
        var overlap: Double
    }

    /// The pairs (row = face, column = detection) of a maximum-total assignment of `overlaps`
    /// (rows x columns, entries >= 0; NaN and negative entries count as 0).
    static func maximumTotalOverlap(_ overlaps: [[Double]]) -> [Pair] {
        func value(_ r: Int, _ c: Int) -> Double {
            let v = overlaps[r][c]
            return v > 0 && v.isFinite ? v : 0
        }
        let columns = overlaps.first?.count ?? 0
        let rows = overlaps.indices.filter { r in (0..<columns).contains { value(r, $0) > 0 } }
        let cols = (0..<columns).filter { c in rows.contains { value($0, c) > 0 } }
        guard !rows.isEmpty, !cols.isEmpty else { return [] }
        // The solver assigns every row of a matrix with no more rows than columns.
        let transposed = rows.count > cols.count
        let n = transposed ? cols.count : rows.count, m = transposed ? rows.count : cols.count
        let assignment = BipartiteMatching.minimumCostAssignment(n: n, m: m) { i, j in
            transposed ? -value(rows[j], cols[i]) : -value(rows[i], cols[j])
        }
        var pairs: [Pair] = []
        for (i, j) in assignment.enumerated() where j >= 0 {
            let (r, c) = transposed ? (rows[j], cols[i]) : (rows[i], cols[j])
            let v = value(r, c)
            if v > 0 { pairs.append(Pair(row: r, column: c, overlap: v)) }
        }
        return pairs.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
    }
}
