import FramelabCore
@testable import FramelabEvaluation
import Testing

/// FDDB's assignment step against exhaustive search on small random overlap matrices, many
/// of whose entries (and whole rows and columns) are zero, as they are in real images.
@Suite struct HungarianAssignmentTests {
    /// The best total over every assignment, by trying each free column (or none) per row.
    static func bruteForce(_ w: [[Double]], row: Int = 0, used: Set<Int> = []) -> Double {
        guard row < w.count else { return 0 }
        var best = bruteForce(w, row: row + 1, used: used)
        for c in w[row].indices where !used.contains(c) && w[row][c] > 0 {
            best = max(best, w[row][c] + bruteForce(w, row: row + 1, used: used.union([c])))
        }
        return best
    }

    @Test func findsTheLargestTotalOverlapOnRandomMatrices() {
        var random = SplitMix64(seed: 2010)
        for trial in 0..<400 {
            let rows = 1 + trial % 7, columns = 1 + (trial / 7) % 7
            let w = (0..<rows).map { _ in
                (0..<columns).map { _ in Double.random(in: 0..<1, using: &random) < 0.45 ? 0 : Double.random(in: 0..<1, using: &random) }
            }
            let pairs = HungarianAssignment.maximumTotalOverlap(w)
            let total = pairs.reduce(0) { $0 + $1.overlap }
            #expect(abs(total - Self.bruteForce(w)) < 1e-9, "trial \(trial): \(w)")
            #expect(Set(pairs.map(\.row)).count == pairs.count && Set(pairs.map(\.column)).count == pairs.count)
            #expect(pairs.allSatisfy { $0.overlap > 0 && $0.overlap == w[$0.row][$0.column] })
        }
    }

    @Test func keepsEveryPairAboveZeroAndDropsEmptyRowsAndColumns() {
        // Small overlaps are pairs too (the 0.5 cut is the discrete score's, not the assignment's).
        #expect(HungarianAssignment.maximumTotalOverlap([[0.1, 0], [0, 0], [0, 0.2]])
                == [.init(row: 0, column: 0, overlap: 0.1), .init(row: 2, column: 1, overlap: 0.2)])
        #expect(HungarianAssignment.maximumTotalOverlap([[0, 0], [0, 0]]).isEmpty)
        #expect(HungarianAssignment.maximumTotalOverlap([]).isEmpty)
        #expect(HungarianAssignment.maximumTotalOverlap([[]]).isEmpty)
        // The total wins over the number of pairs above 0.5: 0.49 + 0.5 > 0.51.
        #expect(HungarianAssignment.maximumTotalOverlap([[0.51, 0.5], [0.49, 0]])
                == [.init(row: 0, column: 1, overlap: 0.5), .init(row: 1, column: 0, overlap: 0.49)])
    }
}
