// Compiled into two modules: FramelabKernelsAVX2 (x86-64-v3) and, through a symlink,
// FramelabKernelsAVX2VNNI (v3 + AVX-VNNI, which defines FRAMELAB_VNNI: Package.swift).
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
/// Zen 3, 1080p, `bench filters --filter vibrance --paths simd`, three alternating runs:
/// 1.29–1.31 ms before, 1.08–1.14 ms after.
/// Each channel is c·(64k) + Y with Y = y6·(4096 − k) + 2^17 worked out once a pixel, the
/// same integer as the portable loop's y6·4096 + 2^17 + (64c − y6)·k: three instructions a
/// channel, not five (`PortableKernels.vibrance` says why it is exact); AMD EPYC family 25
/// model 17 (Zen 4), C harness, 1080p, min of 100: 0.88 → 0.79 ms. Here it is computed as
/// (c·k + (Y >> 6)) >> 12, the same integer (`packed` says why), so that every product is a
/// `vpmaddwd` (one micro-op) and none a `vpmulld` (two on Intel cores, one on Zen; not
/// re-measured on Zen): Intel Xeon family 6 model 207, 1080p, three alternating runs,
/// 1.40–1.43 → 1.21–1.23 ms (bgr8 1.64–1.65 → 1.43–1.44). 36 vector instructions per eight
/// pixels besides the load and store, as before this change (41 before the first). With
/// AVX-VNNI (the avx2+vnni table) each product and the sum it joins are one `vpdpwssd`, the
/// same wrapping 32-bit add as `vpaddd` and so the same integers: 31 instructions a step, as
/// in the avx512 VNNI step (`multiplyAdd`).
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
    typealias Splats = (bytes: __m256i, bytePairs: __m256i, blueRed: __m256i, greenRound: __m256i, highOne: __m256i,
                        amount: __m256i, kStart: __m256i, one: __m256i, round18: __m256i, green: __m256i, red: __m256i)

    @inline(__always)
    static func splats(_ amount: Int32) -> Splats {
        (bytes: _mm256_set1_epi32(0xFF), bytePairs: _mm256_set1_epi32(0x00FF_00FF),
         // (B, R) weights as the two 16-bit halves of each lane, and G's beside the luma's
         // rounding 128, which multiplies the 1 put in G's high half (`highOne`).
         blueRed: _mm256_set1_epi32(LumaWeights.b | (LumaWeights.r << 16)),
         greenRound: _mm256_set1_epi32(LumaWeights.g | (128 << 16)), highOne: _mm256_set1_epi32(1 << 16),
         // The amount in the low 16 bits of each lane only (|amount| ≤ 4112), for `vpmaddwd`.
         amount: _mm256_set1_epi32(amount & 0xFFFF), kStart: _mm256_set1_epi32(PortableKernels.vibranceStart(amount)),
         one: _mm256_set1_epi32(4096), round18: _mm256_set1_epi32(1 << 17),
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
        let weighted = multiplyAdd(_mm256_madd_epi16(_mm256_and_si256(v, c.bytePairs), c.blueRed),
                                   _mm256_or_si256(g, c.highOne), c.greenRound)
        let y6 = _mm256_srai_epi32(weighted, 8)
        let spread = _mm256_sub_epi32(_mm256_max_epi32(_mm256_max_epi32(r, g), b),
                                      _mm256_min_epi32(_mm256_min_epi32(r, g), b))
        // Every product is a `vpmaddwd` of two values that fit 16 bits, the upper half of one
        // of them 0, so exact: spread 0…255 by |amount| ≤ 4112; y6 0…16320 by 4096 − k in
        // −4096…4096; a channel 0…255 by k in 0…8192. `vpmulld` is two micro-ops on Intel
        // cores (one on Zen).
        // k = 4096 + ((255·amount + 128 − amount·spread) >> 8), at 12 fractional bits.
        let k = _mm256_add_epi32(c.one, _mm256_srai_epi32(_mm256_sub_epi32(c.kStart, _mm256_madd_epi16(spread, c.amount)), 8))
        // (c·64k + Y) >> 18 is (c·k + (Y >> 6)) >> 12: c·k is whole, so dropping Y's low six
        // bits first cannot move the result across a multiple of 2^12.
        let y = _mm256_srai_epi32(multiplyAdd(c.round18, y6, _mm256_sub_epi32(c.one, k)), 6)
        @inline(__always) func channel(_ x: __m256i) -> __m256i {
            _mm256_srai_epi32(multiplyAdd(y, x, k), 12)
        }
        return _mm256_packus_epi16(_mm256_packs_epi32(channel(b), channel(g)),
                                   _mm256_packs_epi32(channel(r), _mm256_srli_epi32(v, 24)))
    }

    /// `sum` plus the pairwise products of the 16-bit words of `a` and `b` (`vpmaddwd` then
    /// `vpaddd`, or one `vpdpwssd` where the module has AVX-VNNI).
    @inline(__always)
    static func multiplyAdd(_ sum: __m256i, _ a: __m256i, _ b: __m256i) -> __m256i {
        #if FRAMELAB_VNNI
        _mm256_dpwssd_avx_epi32(sum, a, b)
        #else
        _mm256_add_epi32(sum, _mm256_madd_epi16(a, b))
        #endif
    }
}
#endif
