import Dispatch
import Synchronization

/// Runs `body` over rows 0..<count on up to `threads` workers, in parallel when threads > 1.
enum RowParallel {
    /// Pieces per worker for rows that do not depend on their neighbours' processing. A
    /// worker takes the next piece (in row order) whenever it is free, so one that starts
    /// late or runs on a busier vCPU ends up with fewer rows instead of holding up the frame:
    /// a per-pixel loop over a 1080p frame on this 2-vCPU machine (Zen 3) ran 1.35–1.45x
    /// faster on two workers than on one with two fixed halves, 1.64–1.74x with 16 pieces.
    static let piecesPerWorker = 8

    static func run(rows count: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        runBands(rows: count, threads: threads) { _, band in body(band) }
    }

    /// How many workers `runBands` uses (so per-worker scratch can be prepared before it).
    static func bandCount(rows count: Int, threads: Int) -> Int { max(1, min(threads, count)) }

    /// Like `run`, also passing the worker's index 0..<bandCount, so a worker can use memory
    /// of its own. With `piecesPerWorker` 1 each worker gets one contiguous band (a
    /// neighbourhood filter's ring of rows spans it); with more, the rows are cut into that
    /// many pieces per worker, handed out in order, and a worker's pieces need not touch.
    static func runBands(rows count: Int, threads: Int, piecesPerWorker: Int = 1, _ body: (Int, Range<Int>) -> Void) {
        let workers = bandCount(rows: count, threads: threads)
        if workers == 1 {
            body(0, 0..<count)
            return
        }
        let pieces = min(count, workers * max(1, piecesPerWorker))
        withoutActuallyEscaping(body) { body in
            // Both ways of running the workers return only when every worker is done, so
            // `body` does not escape.
            let box = UncheckedSendable(body)
            let next = Atomic<Int>(0)
            let worker: @Sendable (Int) -> Void = { worker in
                if pieces == workers {
                    box.value(worker, (count * worker / workers)..<(count * (worker + 1) / workers))
                    return
                }
                while true {
                    let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard k < pieces else { return }
                    box.value(worker, (count * k / pieces)..<(count * (k + 1) / pieces))
                }
            }
            // The helpers that start at once (RowWorkers.swift); when they are busy with
            // another caller's frame, or there are more workers than cores, Dispatch's pool.
            if !RowWorkers.shared.run(workers: workers, worker) {
                DispatchQueue.concurrentPerform(iterations: workers, execute: worker)
            }
        }
    }
}

/// Carries a value into concurrentPerform; callers guarantee workers touch disjoint rows.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
