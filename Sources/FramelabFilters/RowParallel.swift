import Dispatch

/// Splits rows 0..<count into `threads` contiguous bands and runs `body` on each band, in
/// parallel when threads > 1. Bands are contiguous so each thread streams its own memory.
enum RowParallel {
    static func run(rows count: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        runBands(rows: count, threads: threads) { _, band in body(band) }
    }

    /// How many bands `runBands` makes (so per-band scratch can be prepared before it).
    static func bandCount(rows count: Int, threads: Int) -> Int { max(1, min(threads, count)) }

    /// Like `run`, also passing the band's index 0..<bandCount, so a band can use memory
    /// of its own.
    static func runBands(rows count: Int, threads: Int, _ body: (Int, Range<Int>) -> Void) {
        let bands = bandCount(rows: count, threads: threads)
        if bands == 1 {
            body(0, 0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            // concurrentPerform returns only when every band is done, so `body` does not escape.
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: bands) { i in
                box.value(i, (count * i / bands)..<(count * (i + 1) / bands))
            }
        }
    }
}

/// Carries a value into concurrentPerform; callers guarantee bands touch disjoint rows.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
