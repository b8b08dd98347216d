// Compiled into two modules, like AVX512Step.swift: FramelabKernelsAVX512 (x86-64-v4) and,
// through a symlink, FramelabKernelsAVX512VBMI (v4 + VBMI + VNNI, which defines
// FRAMELAB_VNNI: Package.swift). Free functions and a tuple, no nominal type, for the
// reason AVX512Step.swift gives.
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// Vibrance's sixteen-pixel step: `AVX2VibranceStep.channels` and its row's blend on 512-bit
/// registers, the same integers lane for lane (that file says why each product is exact),
/// with the last pixels of a row through the same step under a mask (`avx512Row`), so a row
/// needs no scalar tail. The packs and byte shuffles work within 128-bit lanes, so the avx2
/// step's per-lane patterns serve, broadcast. Worth it where 512-bit integer work issues at
/// full width: on Zen 5 (AMD EPYC family 26 model 2) it halved the time (docs/filters.md);
/// Intel cores with two 512-bit ports should gain alike, not measured. On Zen 4, which
/// splits it in two, a C harness measured it at 0.83 against the avx2 step's 0.79 ms
/// (1080p), within the goal either way. With AVX-512 VNNI each product and the sum it joins
/// are one `vpdpwssd` (the same wrapping 32-bit add as `vpaddd`, so the same integers):
/// 26 instructions a step, 33 without (the avx2 step's count; 31 and 36 before its channels
/// became 16-bit words).
typealias AVX512VibranceSplats = (bytePairs: __m512i, blueRed: __m512i, green: __m512i, round8: __m512i,
                                  amount: __m512i, kStart: __m512i, one: __m512i, round18: __m512i,
                                  red: __m512i, interleave: __m512i)

/// The step's constants for one row and `amount` (the kernel's fixed-point amount).
@inline(__always)
func avx512VibranceSplats(_ amount: Int32) -> AVX512VibranceSplats {
    (bytePairs: _mm512_set1_epi32(0x00FF_00FF), blueRed: _mm512_set1_epi32(LumaWeights.b | (LumaWeights.r << 16)),
     green: _mm512_set1_epi32(LumaWeights.g), round8: _mm512_set1_epi32(128), amount: _mm512_set1_epi32(amount & 0xFFFF),
     kStart: _mm512_set1_epi32(255 &- PortableKernels.vibranceStart(amount)),
     one: _mm512_set1_epi32(4096), round18: _mm512_set1_epi32(1 << 17),
     red: _mm512_broadcast_i32x4(_mm_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1)),
     interleave: _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 9, 1, 5, 10, 11, 2, 6, 12, 13, 3, 7, 14, 15)))
}

/// Sixteen BGRA pixels (one per 32-bit lane) through vibrance, back in pixel order.
@inline(__always)
func avx512VibranceSixteen(_ v: __m512i, _ c: AVX512VibranceSplats) -> __m512i {
    // (B, R), (G, A) and (R, 0) words; 16-bit max and min (`AVX2VibranceStep.channels`).
    let br = _mm512_and_si512(v, c.bytePairs), ga = _mm512_srli_epi16(v, 8), r = _mm512_shuffle_epi8(v, c.red)
    // y6 = (b·wb + g·wg + r·wr + 128) >> 8.
    let y6 = _mm512_srai_epi32(multiplyAdd(multiplyAdd(c.round8, br, c.blueRed), ga, c.green), 8)
    let spread = _mm512_sub_epi16(_mm512_max_epi16(_mm512_max_epi16(r, ga), br), _mm512_min_epi16(_mm512_min_epi16(r, ga), br))
    // n = 4096 − k = (amount·spread − (255·amount + 128) + 255) >> 8; Y = (y6·n + 2^17) >> 6.
    let n = _mm512_srai_epi32(multiplyAdd(c.kStart, spread, c.amount), 8)
    let k = _mm512_sub_epi32(c.one, n)
    let y = _mm512_srai_epi32(multiplyAdd(c.round18, y6, n), 6)
    @inline(__always) func channel(_ x: __m512i) -> __m512i { _mm512_srai_epi32(multiplyAdd(y, x, k), 12) }
    // R's result beside its alpha (the high word of (G, A)) by one word blend.
    let packed = _mm512_packus_epi16(_mm512_packs_epi32(channel(br), channel(ga)),
                                     _mm512_mask_blend_epi16(0xAAAA_AAAA, channel(r), ga))
    return _mm512_shuffle_epi8(packed, c.interleave)
}

/// `sum` plus the pairwise products of the 16-bit words of `a` and `b` (`vpmaddwd` then
/// `vpaddd`, or one `vpdpwssd` where the module has VNNI).
@inline(__always)
func multiplyAdd(_ sum: __m512i, _ a: __m512i, _ b: __m512i) -> __m512i {
    #if FRAMELAB_VNNI
    _mm512_dpwssd_epi32(sum, a, b)
    #else
    _mm512_add_epi32(sum, _mm512_madd_epi16(a, b))
    #endif
}
#endif
