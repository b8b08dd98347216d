/// The working memory of one `GaussianBlur.applyVector` call: a padded source row (bytes,
/// for strips at the image's edges) and its pairs, the last two horizontally blurred rows,
/// the ring of row pairs, the splatted weight pairs and the ring slots an output row
/// combines. One scratch serves one thread at a time; a filter instance keeps one per band
/// (`ScratchPool`), so steady state allocates nothing and concurrent bands never share memory.
final class BlurScratch {
    /// The sizes `GaussianBlur.applyVector` needs, in elements.
    struct Counts: Equatable {
        var padded = 0, pairs = 0, rows = 0, ring = 0, weightPairs = 0
        func fits(in other: Counts) -> Bool {
            padded <= other.padded && pairs <= other.pairs && rows <= other.rows && ring <= other.ring
                && weightPairs <= other.weightPairs
        }
    }

    /// The buffers as plain pointers (valid only inside `withBuffers`).
    struct Buffers {
        let padded: UnsafeMutablePointer<UInt8>
        let pairs, rows, ring: UnsafeMutablePointer<Int16>
        /// Horizontal weight pairs first, then as many vertical ones.
        let weights: UnsafeMutablePointer<SIMD16<Int16>>
        let slots: UnsafeMutablePointer<Int>
    }

    private var padded: [UInt8] = []
    private var pairs: [Int16] = [], rows: [Int16] = [], ring: [Int16] = []
    private var weights: [SIMD16<Int16>] = []
    private var slots: [Int] = []
    private var counts = Counts()
    /// How many times the buffers were (re)made: 1 after the first frame of a size, and it
    /// stays there while frames keep their shape (tests check this).
    private(set) var allocations = 0

    /// Makes sure the buffers hold at least these counts; grows them only when a frame is
    /// larger than every frame before it.
    func reserve(_ needed: Counts) {
        guard !needed.fits(in: counts) else { return }
        counts = Counts(padded: max(needed.padded, counts.padded), pairs: max(needed.pairs, counts.pairs),
                        rows: max(needed.rows, counts.rows), ring: max(needed.ring, counts.ring),
                        weightPairs: max(needed.weightPairs, counts.weightPairs))
        padded = [UInt8](repeating: 0, count: counts.padded)
        pairs = [Int16](repeating: 0, count: counts.pairs)
        rows = [Int16](repeating: 0, count: counts.rows)
        ring = [Int16](repeating: 0, count: counts.ring)
        weights = [SIMD16<Int16>](repeating: .zero, count: 2 * counts.weightPairs)
        slots = [Int](repeating: 0, count: counts.weightPairs + 1)
        allocations += 1
    }

    /// Runs `body` with the buffers as plain pointers.
    func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        padded.withUnsafeMutableBufferPointer { p in
            pairs.withUnsafeMutableBufferPointer { q in
                rows.withUnsafeMutableBufferPointer { r in
                    ring.withUnsafeMutableBufferPointer { g in
                        weights.withUnsafeMutableBufferPointer { w in
                            slots.withUnsafeMutableBufferPointer { o in
                                body(Buffers(padded: p.baseAddress!, pairs: q.baseAddress!, rows: r.baseAddress!,
                                             ring: g.baseAddress!, weights: w.baseAddress!, slots: o.baseAddress!))
                            }
                        }
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
