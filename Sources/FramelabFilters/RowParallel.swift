import Dispatch

/// Splits rows 0..<count into `threads` contiguous bands and runs `body` on each band, in
/// parallel when threads > 1. Bands are contiguous so each thread streams its own memory.
enum RowParallel {
    static func run(rows count: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        let bands = max(1, min(threads, count))
        if bands == 1 {
            body(0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            // concurrentPerform returns only when every band is done, so `body` does not escape.
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: bands) { i in
                box.value((count * i / bands)..<(count * (i + 1) / bands))
            }
        }
    }
}

/// Carries a value into concurrentPerform; callers guarantee bands touch disjoint rows.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
