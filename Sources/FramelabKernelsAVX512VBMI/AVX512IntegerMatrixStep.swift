// Only in FramelabKernelsAVX512VBMI, the module compiled with AVX-512 VNNI as well
// (Package.swift), which the avx512 level uses only when CPUID has both (`KernelLevel`).
// Free functions and a tuple, no nominal type, for the reason AVX512Step.swift gives.
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The colour matrix's sixteen-pixel step (3x3 plus bias on B, G, R; alpha kept) in 16-bit
/// fixed point with AVX-512 VNNI, for the matrices whose weights fit: no conversions and no
/// channel shuffles, so about 17 instructions where the float step (`avx512MatrixSixteen`)
/// takes 23; on a Xeon whose 512-bit work shares two ports, the fused matrix-curve loop
/// takes about 15% less time per pixel (docs/filters.md).
///
/// Each pixel's 32-bit lane is split into 16-bit pairs, (B, R) by a mask and (G, A) by a
/// shift and the mask; `vpdpwssd` multiplies both words of a lane by a pair of 16-bit weights
/// and adds both products to the lane's 32-bit sum, so two of them give a channel:
/// bias + B·wB + R·wR + G·wG (the alpha weight is zero). Weights are the matrix's times
/// 2^13, rounded; the sum shifted right by 13, after a bias that adds one half, is the
/// result rounded half up; the saturating packs clamp to 0…255 as in the float step.
/// Error: at most 3 · 255 · 2^-14 ≈ 0.047 from the weights' rounding, so a result is
/// within one level of the float step's and of the exact one.
typealias AVX512IntegerMatrixSplats = (blueRedB: __m512i, greenB: __m512i, biasB: __m512i,
                                       blueRedG: __m512i, greenG: __m512i, biasG: __m512i,
                                       blueRedR: __m512i, greenR: __m512i, biasR: __m512i, interleave: __m512i)

/// Fractional bits of the weights.
private let fractionBits: Float = 8192  // 2^13

/// Whether `k` (the kernel's 4 x 5 layout: rows R, G, B, A on R, G, B, A, bias) fits the
/// step: every colour weight below 4 in magnitude (16 bits after scaling) and every bias
/// within ±65,536 (so the 32-bit sum cannot overflow), all finite. Other matrices take the
/// float step. (A separate test, not an optional result: an optional of the splats made
/// the compiler emit copy helpers under names other modules share, docs/filters.md.)
@inline(__always)
func avx512IntegerMatrixFits(_ k: UnsafePointer<Float>) -> Bool {
    for r in 0..<3 {
        let base = 5 &* r
        for c in 0..<3 where !((k[base &+ c] * fractionBits).rounded().magnitude <= 32767) { return false }  // NaN too
        if !(k[base &+ 4].magnitude <= 65536) { return false }
    }
    return true
}

/// The splats of `k`, which must fit (`avx512IntegerMatrixFits`).
@inline(__always)
func avx512IntegerMatrixSplats(_ k: UnsafePointer<Float>) -> AVX512IntegerMatrixSplats {
    @inline(__always) func weight(_ m: Float) -> UInt32 { UInt32(UInt16(bitPattern: Int16((m * fractionBits).rounded()))) }
    @inline(__always) func row(_ r: Int) -> (blueRed: __m512i, green: __m512i, bias: __m512i) {
        let base = 5 &* r
        let blueRed = weight(k[base &+ 2]) | weight(k[base]) &<< 16
        return (_mm512_set1_epi32(Int32(bitPattern: blueRed)), _mm512_set1_epi32(Int32(bitPattern: weight(k[base &+ 1]))),
                _mm512_set1_epi32(Int32((k[base &+ 4] * fractionBits).rounded()) &+ 4096))  // + one half
    }
    let red = row(0), green = row(1), blue = row(2)
    return (blue.blueRed, blue.green, blue.bias, green.blueRed, green.green, green.bias, red.blueRed, red.green, red.bias,
            _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)))
}

/// Sixteen BGRA pixels through the matrix.
@inline(__always)
func avx512IntegerMatrixSixteen(_ v: __m512i, _ c: AVX512IntegerMatrixSplats) -> __m512i {
    let lowBytes = _mm512_set1_epi32(0x00FF_00FF)
    let blueRed = _mm512_and_si512(v, lowBytes), greenAlpha = _mm512_and_si512(_mm512_srli_epi32(v, 8), lowBytes)
    @inline(__always) func channel(_ pair: __m512i, _ green: __m512i, _ bias: __m512i) -> __m512i {
        _mm512_srai_epi32(_mm512_dpwssd_epi32(_mm512_dpwssd_epi32(bias, blueRed, pair), greenAlpha, green), 13)
    }
    let nb = channel(c.blueRedB, c.greenB, c.biasB)
    let ng = channel(c.blueRedG, c.greenG, c.biasG)
    let nr = channel(c.blueRedR, c.greenR, c.biasR)
    let packed = _mm512_packus_epi16(_mm512_packs_epi32(nb, ng), _mm512_packs_epi32(nr, _mm512_srli_epi32(v, 24)))
    return _mm512_shuffle_epi8(packed, c.interleave)
}
#endif
