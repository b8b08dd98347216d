// Compiled into two modules: FramelabKernelsAVX2 (x86-64-v3) and, through a symlink,
// FramelabKernelsAVX2VNNI (v3 + AVX-VNNI, which defines FRAMELAB_VNNI: Package.swift).
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
///
/// With AVX-VNNI (the avx2+vnni table: Alder Lake and later Intel cores, Zen 5) a channel
/// is two `vpdpwssd` in a chain from its bias, as in the avx512 VNNI step: (G, alpha) words
/// by one word shift, times (weight, 0). The shuffle, the OR and the three adds go: 16
/// vector instructions, of which six multiplies and nine shuffles and shifts, where this
/// core kind runs multiplies on two pipes and shuffles and shifts on two (docs/filters.md).
typealias AVX2IntegerMatrixSplats = (blueRedB: __m256i, greenB: __m256i, blueRedG: __m256i, greenG: __m256i,
                                     blueRedR: __m256i, greenR: __m256i, biasB: __m256i, biasG: __m256i, biasR: __m256i,
                                     green: __m256i, interleave: __m256i)

/// The splats of the weight words `fixed` (`FixedPointMatrix.weights(of:)`): the (G, bias)
/// pairs as they are without VNNI, split into (G, 0) and the bias times 256 with it.
@inline(__always)
func avx2IntegerMatrixSplats(_ fixed: UnsafePointer<Int32>) -> AVX2IntegerMatrixSplats {
    let w = FixedPointMatrix.weightPairs(fixed)
    #if FRAMELAB_VNNI
    @inline(__always) func green(_ pair: Int32) -> __m256i { _mm256_set1_epi32(pair & 0xFFFF) }
    @inline(__always) func bias(_ pair: Int32) -> __m256i { _mm256_set1_epi32((pair &>> 16) &* 256) }
    #else
    @inline(__always) func green(_ pair: Int32) -> __m256i { _mm256_set1_epi32(pair) }
    @inline(__always) func bias(_ pair: Int32) -> __m256i { _mm256_setzero_si256() }
    #endif
    return (_mm256_set1_epi32(w.blueRedB), green(w.greenBiasB), _mm256_set1_epi32(w.blueRedG), green(w.greenBiasG),
            _mm256_set1_epi32(w.blueRedR), green(w.greenBiasR), bias(w.greenBiasB), bias(w.greenBiasG), bias(w.greenBiasR),
            _mm256_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1,
                             1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1),
            avx2PacksToPixels())
}

/// The byte shuffle from the packs' order (`vpackssdw` of two channel vectors each, then
/// `vpackuswb`: each lane B0…B3, G0…G3, R0…R3, A0…A3) back to its four BGRA pixels.
@inline(__always)
func avx2PacksToPixels() -> __m256i {
    _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                     0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
}

/// The new B, G and R of eight pixels as 32-bit lanes, from their B and R as 16-bit words
/// (`blueRed`) and their G in the low word beside a high word (`greenHigh`): 256 without
/// VNNI (the bias's weight word being the bias / 256), anything with it (its weight is 0).
@inline(__always)
func avx2IntegerMatrixChannels(_ blueRed: __m256i, _ greenHigh: __m256i,
                               _ c: AVX2IntegerMatrixSplats) -> (blue: __m256i, green: __m256i, red: __m256i) {
    #if FRAMELAB_VNNI
    @inline(__always) func channel(_ blueRedWeights: __m256i, _ greenWeights: __m256i, _ bias: __m256i) -> __m256i {
        _mm256_srai_epi32(_mm256_dpwssd_avx_epi32(_mm256_dpwssd_avx_epi32(bias, blueRed, blueRedWeights),
                                                  greenHigh, greenWeights), 13)
    }
    #else
    @inline(__always) func channel(_ blueRedWeights: __m256i, _ greenBiasWeights: __m256i, _: __m256i) -> __m256i {
        _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(blueRed, blueRedWeights),
                                           _mm256_madd_epi16(greenHigh, greenBiasWeights)), 13)
    }
    #endif
    return (channel(c.blueRedB, c.greenB, c.biasB), channel(c.blueRedG, c.greenG, c.biasG),
            channel(c.blueRedR, c.greenR, c.biasR))
}

/// Eight BGRA pixels through the matrix.
@inline(__always)
func avx2IntegerMatrixEight(_ v: __m256i, _ c: AVX2IntegerMatrixSplats) -> __m256i {
    let blueRed = _mm256_and_si256(v, _mm256_set1_epi32(0x00FF_00FF))
    #if FRAMELAB_VNNI
    // (G, alpha) words: each word's high byte, by one shift.
    let greenHigh = _mm256_srli_epi16(v, 8)
    #else
    // Low words: G (a byte shuffle); high words: 256 in place of A. (`vpblendw` would do it
    // in one instruction, but its intrinsic is a macro Swift cannot import.)
    let greenHigh = _mm256_or_si256(_mm256_shuffle_epi8(v, c.green), _mm256_set1_epi32(0x0100_0000))
    #endif
    let (nb, ng, nr) = avx2IntegerMatrixChannels(blueRed, greenHigh, c)
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
