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
        let c = splats(amount)
        let interleave = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                          0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
        var x = 0
        while x &+ 8 <= width {
            let v = (s + 4 &* x).loadUnaligned(as: __m256i.self)
            (d + 4 &* x).storeBytes(of: _mm256_shuffle_epi8(packed(v, c), interleave), as: __m256i.self)
            x &+= 8
        }
        return x
    }

    /// The same on a bgr8 row, eight pixels (exactly their 24 bytes) a step: one byte shuffle
    /// to BGRA lanes (alpha 0, which the step carries and the store drops), the step, and the
    /// colour matrix's three-byte store (`avx2StoreEightThreeByte`), where the BGRA buffer
    /// took a store and a load each way more. Returns the first pixel not done.
    @inline(never)
    static func rowThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                             _ amount: Int32) -> Int {
        let c = splats(amount), spread = avx2ThreeByteToBGRA()
        var x = 0
        while x &+ 8 <= width {
            let v = _mm256_shuffle_epi8(avx2LoadEightThreeByte(UnsafeRawPointer(s + 3 &* x)), spread)
            avx2StoreEightThreeByte(packed(v, c), UnsafeMutableRawPointer(d + 3 &* x))
            x &+= 8
        }
        return x
    }

    /// The step's constants, made once per row. A tuple, not a struct: a struct of 384 bytes
    /// would give this module a `__swift_memcpy384_16` that other modules define too
    /// (`KernelLevelTests.levelModulesDefineNoSharedWeakCode`).
    typealias Splats = (bytes: __m256i, bytePairs: __m256i, blueRed: __m256i, greenWeight: __m256i,
                        amount: __m256i, full: __m256i, half8: __m256i, one: __m256i, round6: __m256i,
                        round18: __m256i, green: __m256i, red: __m256i)

    @inline(__always)
    static func splats(_ amount: Int32) -> Splats {
        (bytes: _mm256_set1_epi32(0xFF), bytePairs: _mm256_set1_epi32(0x00FF_00FF),
         // (B, R) weights as the two 16-bit halves of each lane, and G's alone.
         blueRed: _mm256_set1_epi32(LumaWeights.b | (LumaWeights.r << 16)), greenWeight: _mm256_set1_epi32(LumaWeights.g),
         amount: _mm256_set1_epi32(amount), full: _mm256_set1_epi32(255), half8: _mm256_set1_epi32(128),
         one: _mm256_set1_epi32(4096), round6: _mm256_set1_epi32(128), round18: _mm256_set1_epi32(1 << 17),
         green: _mm256_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1,
                                 1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1),
         red: _mm256_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1,
                               2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1))
    }

    /// Eight BGRA pixels (one per 32-bit lane of `v`) through vibrance, in the packs' order:
    /// each lane B0…B3, G0…G3, R0…R3, A0…A3 (its four pixels; alpha as it came).
    @inline(__always)
    static func packed(_ v: __m256i, _ c: Splats) -> __m256i {
        let b = _mm256_and_si256(v, c.bytes), g = _mm256_shuffle_epi8(v, c.green), r = _mm256_shuffle_epi8(v, c.red)
        // y6 = (b·wb + g·wg + r·wr + 128) >> 8: luma at 6 fractional bits.
        let weighted = _mm256_add_epi32(_mm256_madd_epi16(_mm256_and_si256(v, c.bytePairs), c.blueRed),
                                        _mm256_madd_epi16(g, c.greenWeight))
        let y6 = _mm256_srai_epi32(_mm256_add_epi32(weighted, c.round6), 8)
        let spread = _mm256_sub_epi32(_mm256_max_epi32(_mm256_max_epi32(r, g), b),
                                      _mm256_min_epi32(_mm256_min_epi32(r, g), b))
        // k = 4096 + ((amount·(255 − spread) + 128) >> 8), at 12 fractional bits.
        let k = _mm256_add_epi32(c.one, _mm256_srai_epi32(
            _mm256_add_epi32(_mm256_mullo_epi32(c.amount, _mm256_sub_epi32(c.full, spread)), c.half8), 8))
        let base = _mm256_add_epi32(_mm256_slli_epi32(y6, 12), c.round18)
        @inline(__always) func channel(_ x: __m256i) -> __m256i {
            let offset = _mm256_sub_epi32(_mm256_slli_epi32(x, 6), y6)
            return _mm256_srai_epi32(_mm256_add_epi32(base, _mm256_mullo_epi32(offset, k)), 18)
        }
        return _mm256_packus_epi16(_mm256_packs_epi32(channel(b), channel(g)),
                                   _mm256_packs_epi32(channel(r), _mm256_srli_epi32(v, 24)))
    }
}
#endif
