#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// Vibrance's eight-pixel step in AVX2: the arithmetic of `PortableKernels.vibrance`, lane
/// for lane, with two changes that Swift's SIMD types cannot express:
/// - the luma of B and R is one `vpmaddwd` on the pixel's (B, R) bytes as 16-bit halves;
/// - the end is `AVX2MatrixStep`'s: `vpackssdw` then `vpackuswb` narrow the three channels
///   (and alpha) to bytes with saturation, which is the 0…255 clamp, and one `vpshufb`
///   puts them back in pixel order, where the portable loop clamps with six min/max and
///   re-interleaves with shifts and ORs (12 instructions become 5).
/// The channel values before the clamp lie within ±800, so the 16-bit pack is exact.
/// (`vpmaddwd` for the two remaining products, exact for vibrance's amounts, measured no
/// faster than `vpmulld` here.) Zen 3, 1080p, `bench filters --filter vibrance --paths
/// simd`, three alternating runs: 1.29–1.31 ms before, 1.08–1.14 ms after.
enum AVX2VibranceStep {
    /// The vector part of one BGRA row, `s` to `d` (the same row is fine); returns the
    /// first pixel not done. Not inlined: one small loop with the constants in registers.
    @inline(never)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        let bytes = _mm256_set1_epi32(0xFF), bytePairs = _mm256_set1_epi32(0x00FF_00FF)
        // (B, R) weights as the two 16-bit halves of each lane, and G's alone.
        let blueRed = _mm256_set1_epi32(LumaWeights.b | (LumaWeights.r << 16))
        let greenWeight = _mm256_set1_epi32(LumaWeights.g)
        let va = _mm256_set1_epi32(amount), full = _mm256_set1_epi32(255), half8 = _mm256_set1_epi32(128)
        let one = _mm256_set1_epi32(4096), round6 = _mm256_set1_epi32(128), round18 = _mm256_set1_epi32(1 << 17)
        let green = _mm256_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1,
                                     1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1)
        let red = _mm256_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1,
                                   2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1)
        let interleave = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                          0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
        var x = 0
        while x &+ 8 <= width {
            let v = (s + 4 &* x).loadUnaligned(as: __m256i.self)
            let b = _mm256_and_si256(v, bytes), g = _mm256_shuffle_epi8(v, green), r = _mm256_shuffle_epi8(v, red)
            // y6 = (b·wb + g·wg + r·wr + 128) >> 8: luma at 6 fractional bits.
            let weighted = _mm256_add_epi32(_mm256_madd_epi16(_mm256_and_si256(v, bytePairs), blueRed),
                                            _mm256_madd_epi16(g, greenWeight))
            let y6 = _mm256_srai_epi32(_mm256_add_epi32(weighted, round6), 8)
            let spread = _mm256_sub_epi32(_mm256_max_epi32(_mm256_max_epi32(r, g), b),
                                          _mm256_min_epi32(_mm256_min_epi32(r, g), b))
            // k = 4096 + ((amount·(255 − spread) + 128) >> 8), at 12 fractional bits.
            let k = _mm256_add_epi32(one, _mm256_srai_epi32(
                _mm256_add_epi32(_mm256_mullo_epi32(va, _mm256_sub_epi32(full, spread)), half8), 8))
            let base = _mm256_add_epi32(_mm256_slli_epi32(y6, 12), round18)
            @inline(__always) func channel(_ c: __m256i) -> __m256i {
                let offset = _mm256_sub_epi32(_mm256_slli_epi32(c, 6), y6)
                return _mm256_srai_epi32(_mm256_add_epi32(base, _mm256_mullo_epi32(offset, k)), 18)
            }
            let packed = _mm256_packus_epi16(_mm256_packs_epi32(channel(b), channel(g)),
                                             _mm256_packs_epi32(channel(r), _mm256_srli_epi32(v, 24)))
            (d + 4 &* x).storeBytes(of: _mm256_shuffle_epi8(packed, interleave), as: __m256i.self)
            x &+= 8
        }
        return x
    }
}
#endif
