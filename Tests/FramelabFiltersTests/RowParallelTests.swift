@testable import FramelabFilters
import Synchronization
import Testing

/// Workers share a frame's rows out in pieces: every row once, worker indices inside the
/// prepared count, and with one piece per worker each worker's rows one contiguous band.
@Suite struct RowParallelTests {
    /// Each call's worker index and rows, in no particular order.
    static func calls(rows: Int, threads: Int, pieces: Int) -> [(worker: Int, rows: Range<Int>)] {
        let seen = Mutex<[(worker: Int, rows: Range<Int>)]>([])
        RowParallel.runBands(rows: rows, threads: threads, piecesPerWorker: pieces) { worker, band in
            seen.withLock { $0.append((worker, band)) }
        }
        return seen.withLock { $0 }
    }

    @Test(arguments: [(1080, 2, 8), (1080, 2, 1), (7, 3, 8), (5, 8, 8), (1, 2, 8), (0, 2, 8), (100, 1, 8), (33, 4, 3)])
    func everyRowOnceByAPreparedWorker(rows: Int, threads: Int, pieces: Int) {
        let calls = Self.calls(rows: rows, threads: threads, pieces: pieces)
        var count = [Int](repeating: 0, count: rows)
        for call in calls { for y in call.rows { count[y] += 1 } }
        #expect(count.allSatisfy { $0 == 1 }, "\(rows) rows, \(threads) threads, \(pieces) pieces: \(count)")
        let workers = RowParallel.bandCount(rows: rows, threads: threads)
        #expect(calls.allSatisfy { (0..<workers).contains($0.worker) })
        let expectedCalls = workers == 1 ? 1 : min(rows, workers * pieces)
        #expect(calls.count == expectedCalls, "\(calls.map(\.rows))")
    }

    @Test func onePiecePerWorkerGivesEachWorkerOneBand() {
        let calls = Self.calls(rows: 1080, threads: 2, pieces: 1)
        #expect(Set(calls.map(\.worker)) == [0, 1])
        #expect(Set(calls.map(\.rows)) == [0..<540, 540..<1080])
    }
}
