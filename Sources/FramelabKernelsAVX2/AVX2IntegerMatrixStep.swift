// Free functions and a tuple, no new nominal type: a type brings metadata and value-witness
// helpers under names every level module shares (docs/filters.md, "Kernel levels").
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The colour matrix's eight-pixel step (3x3 plus bias on B, G, R; alpha kept) in 16-bit
/// fixed point (`FixedPointMatrix`), for the matrices whose weights fit: two `vpmaddwd` and
/// an add give a channel. The float step's (`AVX2MatrixStep`) three conversions to float,
/// nine FMAs and three conversions back become six `vpmaddwd`, three adds and three shifts:
/// 20 vector instructions in place of 23, and the row loop's `llvm-mca` estimate falls from
/// 9 to 4.5 cycles per 8 pixels for Zen 3, 9 to 6 for first-generation Zen, 8 to 5.5 for
/// Ice Lake and Alder Lake. Measured on a Xeon (family 6 model 207), 1080p: sepia 0.82–0.89
/// → 0.73–0.77 ms, where memcpy takes 0.63 (docs/filters.md).
typealias AVX2IntegerMatrixSplats = (blueRedB: __m256i, greenBiasB: __m256i, blueRedG: __m256i, greenBiasG: __m256i,
                                     blueRedR: __m256i, greenBiasR: __m256i, green: __m256i, interleave: __m256i)

/// The splats of the weight words `fixed` (`FixedPointMatrix.weights(of:)`).
@inline(__always)
func avx2IntegerMatrixSplats(_ fixed: UnsafePointer<Int32>) -> AVX2IntegerMatrixSplats {
    let w = FixedPointMatrix.weightPairs(fixed)
    return (_mm256_set1_epi32(w.blueRedB), _mm256_set1_epi32(w.greenBiasB), _mm256_set1_epi32(w.blueRedG),
            _mm256_set1_epi32(w.greenBiasG), _mm256_set1_epi32(w.blueRedR), _mm256_set1_epi32(w.greenBiasR),
            _mm256_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1,
                             1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1),
            _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                             0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15))
}

/// The new B, G and R of eight pixels as 32-bit lanes, from their B and R as 16-bit words
/// (`blueRed`) and their G beside a 1 (`greenOne`: G in the low word, 256 in the high one,
/// the bias's weight word being the bias / 256).
@inline(__always)
func avx2IntegerMatrixChannels(_ blueRed: __m256i, _ greenOne: __m256i,
                               _ c: AVX2IntegerMatrixSplats) -> (blue: __m256i, green: __m256i, red: __m256i) {
    @inline(__always) func channel(_ blueRedWeights: __m256i, _ greenBiasWeights: __m256i) -> __m256i {
        _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(blueRed, blueRedWeights),
                                           _mm256_madd_epi16(greenOne, greenBiasWeights)), 13)
    }
    return (channel(c.blueRedB, c.greenBiasB), channel(c.blueRedG, c.greenBiasG), channel(c.blueRedR, c.greenBiasR))
}

/// Eight BGRA pixels through the matrix.
@inline(__always)
func avx2IntegerMatrixEight(_ v: __m256i, _ c: AVX2IntegerMatrixSplats) -> __m256i {
    let blueRed = _mm256_and_si256(v, _mm256_set1_epi32(0x00FF_00FF))
    // Low words: G (a byte shuffle); high words: 256 in place of A. (`vpblendw` would do it
    // in one instruction, but its intrinsic is a macro Swift cannot import.)
    let greenOne = _mm256_or_si256(_mm256_shuffle_epi8(v, c.green), _mm256_set1_epi32(0x0100_0000))
    let (nb, ng, nr) = avx2IntegerMatrixChannels(blueRed, greenOne, c)
    // Int32 → Int16 → UInt8 with saturation (the 0…255 clamp); alpha rides along unchanged.
    let packed = _mm256_packus_epi16(_mm256_packs_epi32(nb, ng), _mm256_packs_epi32(nr, _mm256_srli_epi32(v, 24)))
    return _mm256_shuffle_epi8(packed, c.interleave)
}

/// The vector part of one BGRA row, `s` to `d` (the same row is fine), for the weight words
/// `fixed`; returns the first pixel not done. Not inlined: one small loop with the splats in
/// registers.
@inline(never)
func avx2IntegerMatrixRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ fixed: UnsafePointer<Int32>) -> Int {
    let c = avx2IntegerMatrixSplats(fixed)
    var x = 0
    while x &+ 8 <= width {
        (d + 4 &* x).storeBytes(of: avx2IntegerMatrixEight((s + 4 &* x).loadUnaligned(as: __m256i.self), c), as: __m256i.self)
        x &+= 8
    }
    return x
}
#endif
