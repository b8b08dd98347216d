@testable import FramelabFilters
import Testing

/// Workers share a frame's rows out in pieces: every row once, worker indices inside the
/// prepared count, and with one piece per worker each worker's rows one contiguous band.
@Suite struct RowParallelTests {
    /// Each call's worker index and rows, in no particular order.
    static func calls(rows: Int, threads: Int, pieces: Int) -> [(worker: Int, rows: Range<Int>)] {
        let seen = PerWorker<Range<Int>>(RowParallel.bandCount(rows: rows, threads: threads))
        RowParallel.runBands(rows: rows, threads: threads, piecesPerWorker: pieces) { worker, band in
            seen.append(band, worker: worker)
        }
        return seen.all.flatMap { worker, bands in bands.map { (worker, $0) } }
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

/// What each worker of a parallel run recorded, one list per worker index: a worker writes
/// only its own list, so the lists need no lock (ThreadSanitizer does not see the ordering
/// a `Mutex` gives on Linux, whose futex calls are inside the uninstrumented standard
/// library), and a list written by two threads at once is a race it reports. Read `all`
/// after the run has returned.
final class PerWorker<T>: @unchecked Sendable {
    private let lists: UnsafeMutableBufferPointer<[T]>

    init(_ workers: Int) { lists = .allocate(capacity: workers); lists.initialize(repeating: []) }
    deinit { lists.deinitialize(); lists.deallocate() }

    func append(_ value: T, worker: Int) { lists[worker].append(value) }
    var all: [(worker: Int, values: [T])] { lists.enumerated().map { ($0.offset, $0.element) } }
}
