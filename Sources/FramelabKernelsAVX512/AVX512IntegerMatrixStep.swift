// Compiled into two modules, like AVX512Step.swift: FramelabKernelsAVX512 (x86-64-v4) and,
// through a symlink, FramelabKernelsAVX512VBMI (v4 + VBMI + VNNI, which defines
// FRAMELAB_VNNI: Package.swift). Free functions and a tuple, no nominal type, for the reason
// AVX512Step.swift gives.
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The colour matrix's sixteen-pixel step (3x3 plus bias on B, G, R; alpha kept) in 16-bit
/// fixed point (`FixedPointMatrix`), for the matrices whose weights fit: no conversions and
/// no channel shuffles. Each pixel's lane is split into (B, R) words by a mask and its
/// upper pair of words by one word shift, then multiplied by a pair of weights a channel.
/// With AVX-512 VNNI two `vpdpwssd` (both words times their weights, added to a sum) start
/// from the channel's bias: (G, alpha) words by the shift, times (weight, 0). Without VNNI
/// (the avx512 table: Skylake-SP, Cascade Lake) two `vpmaddwd` and an add, the bias as a
/// weight on 256: (G, 256) words by a masked shift. On a Xeon, whose 512-bit work issues on
/// two ports, a VNNI form took the fused matrix-curve loop from about 15.5 to 11 cycles per
/// 16 pixels (docs/filters.md); starting from the bias saves the masked shift's merge, one
/// instruction a step. LLVM's default tuning splits a `vpdpwssd` whose sum another
/// instruction computes into `vpmaddwd` and `vpaddd` where that shortens a chain (it did in
/// the sixty-four-pixel loop); the VBMI module is built with its `fast-dpwssd` tuning,
/// which keeps them whole (Package.swift).
typealias AVX512IntegerMatrixSplats = (blueRedB: __m512i, greenB: __m512i, blueRedG: __m512i, greenG: __m512i,
                                       blueRedR: __m512i, greenR: __m512i, biasB: __m512i, biasG: __m512i, biasR: __m512i,
                                       interleave: __m512i)

/// The splats of the weight words `fixed` (`FixedPointMatrix.weights(of:)`): the (G, bias)
/// pairs as they are without VNNI, split into (G, 0) and the bias times 256 with it.
@inline(__always)
func avx512IntegerMatrixSplats(_ fixed: UnsafePointer<Int32>) -> AVX512IntegerMatrixSplats {
    let w = FixedPointMatrix.weightPairs(fixed)
    #if FRAMELAB_VNNI
    @inline(__always) func green(_ pair: Int32) -> __m512i { _mm512_set1_epi32(pair & 0xFFFF) }
    @inline(__always) func bias(_ pair: Int32) -> __m512i { _mm512_set1_epi32((pair &>> 16) &* 256) }
    #else
    @inline(__always) func green(_ pair: Int32) -> __m512i { _mm512_set1_epi32(pair) }
    @inline(__always) func bias(_ pair: Int32) -> __m512i { _mm512_setzero_si512() }
    #endif
    return (_mm512_set1_epi32(w.blueRedB), green(w.greenBiasB), _mm512_set1_epi32(w.blueRedG), green(w.greenBiasG),
            _mm512_set1_epi32(w.blueRedR), green(w.greenBiasR), bias(w.greenBiasB), bias(w.greenBiasG), bias(w.greenBiasR),
            _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)))
}

/// Sixteen BGRA pixels through the matrix.
@inline(__always)
func avx512IntegerMatrixSixteen(_ v: __m512i, _ c: AVX512IntegerMatrixSplats) -> __m512i {
    let n = avx512IntegerMatrixChannels(v, c)
    let packed = _mm512_packus_epi16(_mm512_packs_epi32(n.b, n.g), _mm512_packs_epi32(n.r, _mm512_srli_epi32(v, 24)))
    return _mm512_shuffle_epi8(packed, c.interleave)
}

/// The new B, G and R of sixteen BGRA pixels, one 32-bit lane a pixel, not yet clamped.
@inline(__always)
func avx512IntegerMatrixChannels(_ v: __m512i, _ c: AVX512IntegerMatrixSplats) -> (b: __m512i, g: __m512i, r: __m512i) {
    let blueRed = _mm512_and_si512(v, _mm512_set1_epi32(0x00FF_00FF))
    #if FRAMELAB_VNNI
    let greenAlpha = _mm512_srli_epi16(v, 8)
    @inline(__always) func channel(_ blueRedWeights: __m512i, _ greenWeights: __m512i, _ bias: __m512i) -> __m512i {
        _mm512_srai_epi32(_mm512_dpwssd_epi32(_mm512_dpwssd_epi32(bias, blueRed, blueRedWeights), greenAlpha, greenWeights), 13)
    }
    #else
    // Low words: G (the pixel's low word shifted right by 8); high words: 256.
    let greenOne = _mm512_mask_srli_epi16(_mm512_set1_epi32(0x0100_0000), 0x5555_5555, v, 8)
    @inline(__always) func channel(_ blueRedWeights: __m512i, _ greenBiasWeights: __m512i, _: __m512i) -> __m512i {
        _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(blueRed, blueRedWeights), _mm512_madd_epi16(greenOne, greenBiasWeights)), 13)
    }
    #endif
    return (channel(c.blueRedB, c.greenB, c.biasB), channel(c.blueRedG, c.greenG, c.biasG), channel(c.blueRedR, c.greenR, c.biasR))
}
#endif
