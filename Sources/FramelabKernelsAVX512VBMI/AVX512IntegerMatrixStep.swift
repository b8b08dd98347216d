// Only in FramelabKernelsAVX512VBMI, the module compiled with AVX-512 VNNI as well
// (Package.swift), which the avx512 level uses only when CPUID has both (`KernelLevel`).
// Free functions and a tuple, no nominal type, for the reason AVX512Step.swift gives.
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The colour matrix's sixteen-pixel step (3x3 plus bias on B, G, R; alpha kept) in 16-bit
/// fixed point with AVX-512 VNNI, for the matrices whose weights fit: no conversions and no
/// channel shuffles, 16 instructions where the float step (`avx512MatrixSixteen`) takes 23.
/// On a Xeon, whose 512-bit work issues on two ports, the fused matrix-curve loop goes from
/// about 15.5 to 11 cycles per 16 pixels (docs/filters.md).
///
/// Each pixel's 32-bit lane is split into 16-bit pairs: (B, R) by a mask, and (G, 256) by
/// one masked word shift, the constant 256 standing in for alpha so that its weight carries
/// the bias. `vpmaddwd` multiplies both words of a lane by a pair of 16-bit weights and adds
/// the products; `vpdpwssd` does the same and adds the lane's sum to it, so two instructions
/// give a channel: B·wB + R·wR + G·wG + 256·wBias. The colour weights are the matrix's
/// times 2^13, rounded; wBias is (bias + ½) times 2^5, so 256·wBias is the bias plus one
/// half times 2^13, and the sum shifted right by 13 is the result rounded half up; the
/// saturating packs clamp to 0…255 as in the float step. Error: at most
/// 3 · 255 · 2^-14 + 2^-7 ≈ 0.055 of a level from the rounded weights, so a result is within
/// one level of the float step's and of the exact one.
typealias AVX512IntegerMatrixSplats = (blueRedB: __m512i, greenBiasB: __m512i, blueRedG: __m512i, greenBiasG: __m512i,
                                       blueRedR: __m512i, greenBiasR: __m512i, interleave: __m512i)

/// Fractional bits of the colour weights, and of the bias weight (which multiplies 256).
private let fractionBits: Float = 8192  // 2^13
private let biasFractionBits: Float = 32  // 2^13 / 256

/// Whether `k` (the kernel's 4 x 5 layout: rows R, G, B, A on R, G, B, A, bias) fits the
/// step: every colour weight below 4 in magnitude and every bias within about ±1,023, so
/// that each weight fits 16 bits; all finite. Other matrices take the float step. (A
/// separate test, not an optional result: an optional of the splats made the compiler emit
/// copy helpers under names other modules share, docs/filters.md.)
@inline(__always)
func avx512IntegerMatrixFits(_ k: UnsafePointer<Float>) -> Bool {
    for r in 0..<3 {
        let base = 5 &* r
        for c in 0..<3 where !((k[base &+ c] * fractionBits).rounded().magnitude <= 32767) { return false }  // NaN too
        if !(((k[base &+ 4] + 0.5) * biasFractionBits).rounded().magnitude <= 32767) { return false }
    }
    return true
}

/// The splats of `k`, which must fit (`avx512IntegerMatrixFits`).
@inline(__always)
func avx512IntegerMatrixSplats(_ k: UnsafePointer<Float>) -> AVX512IntegerMatrixSplats {
    @inline(__always) func pair(_ low: Float, _ high: Float) -> __m512i {
        let l = UInt32(UInt16(bitPattern: Int16(low.rounded()))), h = UInt32(UInt16(bitPattern: Int16(high.rounded())))
        return _mm512_set1_epi32(Int32(bitPattern: l | h &<< 16))
    }
    @inline(__always) func row(_ r: Int) -> (blueRed: __m512i, greenBias: __m512i) {
        let base = 5 &* r
        return (pair(k[base &+ 2] * fractionBits, k[base] * fractionBits),
                pair(k[base &+ 1] * fractionBits, (k[base &+ 4] + 0.5) * biasFractionBits))
    }
    let red = row(0), green = row(1), blue = row(2)
    return (blue.blueRed, blue.greenBias, green.blueRed, green.greenBias, red.blueRed, red.greenBias,
            _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)))
}

/// Sixteen BGRA pixels through the matrix.
@inline(__always)
func avx512IntegerMatrixSixteen(_ v: __m512i, _ c: AVX512IntegerMatrixSplats) -> __m512i {
    let blueRed = _mm512_and_si512(v, _mm512_set1_epi32(0x00FF_00FF))
    // Low words: G (the pixel's low word shifted right by 8); high words: 256.
    let greenOne = _mm512_mask_srli_epi16(_mm512_set1_epi32(0x0100_0000), 0x5555_5555, v, 8)
    @inline(__always) func channel(_ blueRedWeights: __m512i, _ greenBiasWeights: __m512i) -> __m512i {
        _mm512_srai_epi32(_mm512_dpwssd_epi32(_mm512_madd_epi16(blueRed, blueRedWeights), greenOne, greenBiasWeights), 13)
    }
    let nb = channel(c.blueRedB, c.greenBiasB), ng = channel(c.blueRedG, c.greenBiasG), nr = channel(c.blueRedR, c.greenBiasR)
    let packed = _mm512_packus_epi16(_mm512_packs_epi32(nb, ng), _mm512_packs_epi32(nr, _mm512_srli_epi32(v, 24)))
    return _mm512_shuffle_epi8(packed, c.interleave)
}
#endif
