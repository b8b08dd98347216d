/// Maximum-weight bipartite matching by the Hungarian algorithm (Kuhn 1955, Munkres
/// 1957; the O(n²m) form with row and column potentials and shortest augmenting paths).
///
/// FDDB's evaluation pairs detections with annotated faces this way: the pairing that
/// maximises the summed overlap, instead of letting each detection in score order grab
/// its best face (`FaceMatching`), which can leave a face unmatched that a different
/// pairing would have covered.
public enum BipartiteMatching {
    /// The pairs (row, column) of a matching of `weights` (rows x columns, any shape)
    /// with the largest total weight. Entries below `minimum` (and non-finite ones) are
    /// not edges: such a pair is never returned. Every row and column is used at most once.
    public static func maximumWeight(_ weights: [[Double]], minimum: Double) -> [(row: Int, column: Int)] {
        let rows = weights.count
        let columns = weights.first?.count ?? 0
        guard rows > 0, columns > 0 else { return [] }
        precondition(weights.allSatisfy { $0.count == columns }, "ragged weight matrix")
        func weight(_ r: Int, _ c: Int) -> Double {
            let w = weights[r][c]
            return w.isFinite && w >= minimum ? w : 0
        }
        // The algorithm assigns every row of a matrix with no more rows than columns;
        // transpose when needed. A missing edge costs 0, the same as leaving both ends
        // unmatched, so a minimum-cost full assignment of costs −weight is a maximum-weight
        // matching once the zero-weight pairs are dropped.
        let transposed = rows > columns
        let n = transposed ? columns : rows, m = transposed ? rows : columns
        let cost: (Int, Int) -> Double = transposed ? { i, j in -weight(j, i) } : { i, j in -weight(i, j) }
        let assignment = minimumCostAssignment(n: n, m: m, cost: cost)
        var pairs: [(row: Int, column: Int)] = []
        for (i, j) in assignment.enumerated() {
            let (r, c) = transposed ? (j, i) : (i, j)
            if weight(r, c) > 0 { pairs.append((r, c)) }
        }
        return pairs.sorted { $0.row < $1.row }
    }

    /// For each of `n` rows (n <= m) the column it is assigned to, minimising the summed
    /// `cost(row, column)`. Potentials `u` (rows) and `v` (columns) keep reduced costs
    /// non-negative; each row is added by growing a shortest-path tree over the columns
    /// until it reaches a free column, then flipping the path. Indices are 1-based inside,
    /// with column 0 as the virtual root.
    static func minimumCostAssignment(n: Int, m: Int, cost: (Int, Int) -> Double) -> [Int] {
        precondition(n <= m)
        var u = [Double](repeating: 0, count: n + 1)
        var v = [Double](repeating: 0, count: m + 1)
        var owner = [Int](repeating: 0, count: m + 1)    // row (1-based) holding each column, 0 = free
        var previous = [Int](repeating: 0, count: m + 1) // the column before each one on its path
        for row in 1...n {
            owner[0] = row
            var column = 0
            var slack = [Double](repeating: .infinity, count: m + 1)
            var visited = [Bool](repeating: false, count: m + 1)
            repeat {
                visited[column] = true
                let current = owner[column]
                var delta = Double.infinity
                var next = 0
                for j in 1...m where !visited[j] {
                    let reduced = cost(current - 1, j - 1) - u[current] - v[j]
                    if reduced < slack[j] { slack[j] = reduced; previous[j] = column }
                    if slack[j] < delta { delta = slack[j]; next = j }
                }
                for j in 0...m {
                    if visited[j] {
                        u[owner[j]] += delta
                        v[j] -= delta
                    } else {
                        slack[j] -= delta
                    }
                }
                column = next
            } while owner[column] != 0
            // Flip the augmenting path back to the root.
            repeat {
                let before = previous[column]
                owner[column] = owner[before]
                column = before
            } while column != 0
        }
        var assignment = [Int](repeating: -1, count: n)
        for j in 1...m where owner[j] != 0 { assignment[owner[j] - 1] = j - 1 }
        return assignment
    }
}
