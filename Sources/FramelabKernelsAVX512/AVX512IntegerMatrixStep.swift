// Compiled into two modules, like AVX512Step.swift: FramelabKernelsAVX512 (x86-64-v4) and,
// through a symlink, FramelabKernelsAVX512VBMI (v4 + VBMI + VNNI, which defines
// FRAMELAB_VNNI: Package.swift). Free functions and a tuple, no nominal type, for the reason
// AVX512Step.swift gives.
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The colour matrix's sixteen-pixel step (3x3 plus bias on B, G, R; alpha kept) in 16-bit
/// fixed point (`FixedPointMatrix`), for the matrices whose weights fit: no conversions and
/// no channel shuffles. Each pixel's lane is split into (B, R) words by a mask and (G, 256)
/// words by one masked word shift; `vpmaddwd` on the first pair and, with AVX-512 VNNI,
/// `vpdpwssd` on the second (both words times a pair of weights, added to the first sum)
/// give a channel: 16 instructions where the float step (`avx512MatrixSixteen`) takes 23.
/// Without VNNI (the avx512 table: Skylake-SP, Cascade Lake) a second `vpmaddwd` and an add.
/// On a Xeon, whose 512-bit work issues on two ports, the VNNI form took the fused
/// matrix-curve loop from about 15.5 to 11 cycles per 16 pixels (docs/filters.md).
typealias AVX512IntegerMatrixSplats = (blueRedB: __m512i, greenBiasB: __m512i, blueRedG: __m512i, greenBiasG: __m512i,
                                       blueRedR: __m512i, greenBiasR: __m512i, interleave: __m512i)

/// The splats of the weight words `fixed` (`FixedPointMatrix.weights(of:)`).
@inline(__always)
func avx512IntegerMatrixSplats(_ fixed: UnsafePointer<Int32>) -> AVX512IntegerMatrixSplats {
    let w = FixedPointMatrix.weightPairs(fixed)
    return (_mm512_set1_epi32(w.blueRedB), _mm512_set1_epi32(w.greenBiasB), _mm512_set1_epi32(w.blueRedG),
            _mm512_set1_epi32(w.greenBiasG), _mm512_set1_epi32(w.blueRedR), _mm512_set1_epi32(w.greenBiasR),
            _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)))
}

/// Sixteen BGRA pixels through the matrix.
@inline(__always)
func avx512IntegerMatrixSixteen(_ v: __m512i, _ c: AVX512IntegerMatrixSplats) -> __m512i {
    let blueRed = _mm512_and_si512(v, _mm512_set1_epi32(0x00FF_00FF))
    // Low words: G (the pixel's low word shifted right by 8); high words: 256.
    let greenOne = _mm512_mask_srli_epi16(_mm512_set1_epi32(0x0100_0000), 0x5555_5555, v, 8)
    @inline(__always) func channel(_ blueRedWeights: __m512i, _ greenBiasWeights: __m512i) -> __m512i {
        #if FRAMELAB_VNNI
        let sum = _mm512_dpwssd_epi32(_mm512_madd_epi16(blueRed, blueRedWeights), greenOne, greenBiasWeights)
        #else
        let sum = _mm512_add_epi32(_mm512_madd_epi16(blueRed, blueRedWeights), _mm512_madd_epi16(greenOne, greenBiasWeights))
        #endif
        return _mm512_srai_epi32(sum, 13)
    }
    let nb = channel(c.blueRedB, c.greenBiasB), ng = channel(c.blueRedG, c.greenBiasG), nr = channel(c.blueRedR, c.greenBiasR)
    let packed = _mm512_packus_epi16(_mm512_packs_epi32(nb, ng), _mm512_packs_epi32(nr, _mm512_srli_epi32(v, 24)))
    return _mm512_shuffle_epi8(packed, c.interleave)
}
#endif
