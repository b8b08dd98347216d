/// The working memory of one `GaussianBlur.applySIMD` call: a padded source row, the ring
/// of horizontally blurred rows, the splatted weights and the ring rows an output row
/// combines. One scratch serves one thread at a time; a filter instance keeps one per
/// band (`ScratchPool`), so steady state allocates nothing and concurrent bands never
/// share memory.
final class BlurScratch {
    private(set) var padded: [Int32] = []
    private(set) var ring: [Int32] = []
    private(set) var splat: [SIMD8<Int32>] = []
    /// Offsets into `ring` of the rows one output row combines, oldest first.
    private(set) var rowOffsets: [Int] = []
    /// How many times the buffers were (re)made: 1 after the first frame of a size, and it
    /// stays there while frames keep their shape (tests check this).
    private(set) var allocations = 0

    /// Makes sure the buffers hold at least these counts; grows them only when a frame is
    /// larger than every frame before it.
    func reserve(padded p: Int, ring r: Int, taps: Int) {
        guard padded.count < p || ring.count < r || splat.count < taps else { return }
        padded = [Int32](repeating: 0, count: max(p, padded.count))
        ring = [Int32](repeating: 0, count: max(r, ring.count))
        splat = [SIMD8<Int32>](repeating: .zero, count: max(taps, splat.count))
        rowOffsets = [Int](repeating: 0, count: max(taps, rowOffsets.count))
        allocations += 1
    }

    /// Runs `body` with the four buffers as plain pointers (valid only inside `body`).
    func withBuffers<R>(_ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
                                 UnsafeMutablePointer<SIMD8<Int32>>, UnsafeMutablePointer<Int>) -> R) -> R {
        padded.withUnsafeMutableBufferPointer { p in
            ring.withUnsafeMutableBufferPointer { r in
                splat.withUnsafeMutableBufferPointer { s in
                    rowOffsets.withUnsafeMutableBufferPointer { o in
                        body(p.baseAddress!, r.baseAddress!, s.baseAddress!, o.baseAddress!)
                    }
                }
            }
        }
    }
}

/// One scratch per band of rows, owned by a filter instance or a compiled recipe pass.
/// `prepare(bands:)` runs before the bands start (on the calling thread); each band then
/// uses only `scratch(band:)` of its own index.
final class ScratchPool: @unchecked Sendable {
    private var scratches: [BlurScratch] = []

    func prepare(bands: Int) {
        while scratches.count < bands { scratches.append(BlurScratch()) }
    }

    func scratch(band: Int) -> BlurScratch { scratches[band] }

    /// Total buffer (re)allocations across bands (for tests).
    var allocations: Int { scratches.reduce(0) { $0 + $1.allocations } }
}
