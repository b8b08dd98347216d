// Compiled into two modules, like AVX512Step.swift: FramelabKernelsAVX512 (its BGRA luma)
// and, through a symlink, FramelabKernelsAVX512VBMI (its bgr8 luma, with VNNI). Free functions, no
// nominal type, for the reason AVX512Step.swift gives.
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// Luma of sixteen BGRA pixels, (b·wb + g·wg + r·wr + 2^13) >> 14 as `PortableKernels.luma`
/// computes it, in 16-bit multiply-adds: each pixel's lane split into (B, R) words by a mask
/// and (G, 1) words by one masked word shift, as the fixed-point matrix step does; one
/// `vpmaddwd` on each pair with the weights (wb, wr) and (wg, 2^13) and an add give the sum,
/// and since the weights add up to 2^14 the shifted sum is 0…255, so `vpmovdb` narrows it
/// to bytes exactly. Six vector instructions for sixteen pixels (five with VNNI, whose
/// `vpdpwssd` is the second multiply and the add: `multiplyAdd`).
@inline(__always)
func avx512LumaSixteen(_ v: __m512i) -> __m128i {
    let blueRed = _mm512_and_si512(v, _mm512_set1_epi32(0x00FF_00FF))
    let greenOne = _mm512_mask_srli_epi16(_mm512_set1_epi32(0x0001_0000), 0x5555_5555, v, 8)
    // (G, 1) times (wg, 2^13): the rounding half rides on the constant 1.
    let sum = multiplyAdd(_mm512_madd_epi16(blueRed, _mm512_set1_epi32(LumaWeights.b | (LumaWeights.r << 16))),
                          greenOne, _mm512_set1_epi32(LumaWeights.g | (1 << 29)))
    return _mm512_cvtepi32_epi8(_mm512_srli_epi32(sum, 14))
}
#endif
