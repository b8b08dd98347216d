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
/// Then the channels became 16-bit words that need no masks of their own ((B, R), (G, A),
/// (R, 0); the max and min are 16-bit), the luma's rounding became the first sum, 4096 − k
/// comes straight from the multiply-add and k from it by one subtraction, and R's result
/// joins its alpha by one word blend (`row`): 33 instructions a step (26 with AVX-VNNI).
/// AMD EPYC family 26 model 2 (Zen 5), C harness, 1080p, min of 50, the same bytes:
/// 0.77 → 0.71 ms, with AVX-VNNI 0.66 → 0.56 ms.
enum AVX2VibranceStep {
    /// The vector part of one BGRA row, `s` to `d` (the same row is fine); returns the
    /// first pixel not done. Not inlined: one small loop with the constants in registers.
    @inline(never)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        let c = splats(amount)
        // From each lane's B0…B3, G0…G3, R0, A0, …, R3, A3 to pixel order.
        let interleave = _mm256_setr_epi8(0, 4, 8, 9, 1, 5, 10, 11, 2, 6, 12, 13, 3, 7, 14, 15,
                                          0, 4, 8, 9, 1, 5, 10, 11, 2, 6, 12, 13, 3, 7, 14, 15)
        var x = 0
        while x &+ 8 <= width {
            let v = (s + 4 &* x).loadUnaligned(as: __m256i.self)
            let o = channels(v, c)
            // R's result in each lane's low word beside its alpha (the high word of (G, A)):
            // one blend (a `vpblendw` from LLVM: the mask is a constant), where a shift of the
            // alpha and a pack took two.
            let ra = _mm256_blendv_epi8(o.r, o.ga, c.highWords)
            let packed = _mm256_packus_epi16(_mm256_packs_epi32(o.b, o.g), ra)
            (d + 4 &* x).storeBytes(of: _mm256_shuffle_epi8(packed, interleave), as: __m256i.self)
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
            let o = channels(v, c)
            // The packs' order (the store drops the fourth byte of each pixel).
            let packed = _mm256_packus_epi16(_mm256_packs_epi32(o.b, o.g), _mm256_packs_epi32(o.r, o.r))
            avx2StoreEightThreeByte(packed, UnsafeMutableRawPointer(d + 3 &* x))
            x &+= 8
        }
        return x
    }

    /// The step's constants, made once per row. A tuple, not a struct: a struct of 384 bytes
    /// would give this module a `__swift_memcpy384_16` that other modules define too
    /// (`KernelLevelTests.levelModulesDefineNoSharedWeakCode`).
    typealias Splats = (bytePairs: __m256i, blueRed: __m256i, green: __m256i, round8: __m256i, amount: __m256i,
                        kStart: __m256i, one: __m256i, round18: __m256i, red: __m256i, highWords: __m256i)

    @inline(__always)
    static func splats(_ amount: Int32) -> Splats {
        (bytePairs: _mm256_set1_epi32(0x00FF_00FF),
         // (B, R) weights as the two 16-bit halves of each lane, G's alone (its pixel's
         // alpha sits in the high half beside it), and the luma's rounding.
         blueRed: _mm256_set1_epi32(LumaWeights.b | (LumaWeights.r << 16)), green: _mm256_set1_epi32(LumaWeights.g),
         round8: _mm256_set1_epi32(128),
         // The amount in the low 16 bits of each lane only (|amount| ≤ 4112), for `vpmaddwd`.
         amount: _mm256_set1_epi32(amount & 0xFFFF),
         // −(start − 255): amount·spread plus it, shifted, is 4096 − k (`packed`).
         kStart: _mm256_set1_epi32(255 &- PortableKernels.vibranceStart(amount)),
         one: _mm256_set1_epi32(4096), round18: _mm256_set1_epi32(1 << 17),
         red: _mm256_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1,
                               2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1),
         highWords: _mm256_set1_epi32(-65536))
    }

    /// Eight BGRA pixels (one per 32-bit lane of `v`) through vibrance, before the clamp:
    /// each channel's result in the low 16 bits of its lane (within ±800, so a signed pack
    /// keeps it whole; the high bits are its sign in `b` and `g`, unused in `r`), and the
    /// pixels' (G, A) words, whose high word is alpha as it came.
    @inline(__always)
    static func channels(_ v: __m256i, _ c: Splats) -> (b: __m256i, g: __m256i, r: __m256i, ga: __m256i) {
        // The channels as 16-bit words: (B, R) by one AND, (G, A) by one word shift, (R, 0)
        // by one byte shuffle. A product with a multiplier whose high word is 0 sees only
        // the low word, so each serves as its channel, and the 16-bit max and min see the
        // three channels in the low words (the high words' results go unused).
        let br = _mm256_and_si256(v, c.bytePairs), ga = _mm256_srli_epi16(v, 8), r = _mm256_shuffle_epi8(v, c.red)
        // y6 = (b·wb + g·wg + r·wr + 128) >> 8: luma at 6 fractional bits.
        let y6 = _mm256_srai_epi32(multiplyAdd(multiplyAdd(c.round8, br, c.blueRed), ga, c.green), 8)
        let spread = _mm256_sub_epi16(_mm256_max_epi16(_mm256_max_epi16(r, ga), br),
                                      _mm256_min_epi16(_mm256_min_epi16(r, ga), br))
        // Every product is a `vpmaddwd` of two values that fit 16 bits, the upper half of one
        // of them 0, so exact: spread 0…255 by |amount| ≤ 4112; y6 0…16320 by 4096 − k in
        // −4096…4096; a channel 0…255 by k in 0…8192. `vpmulld` is two micro-ops on Intel
        // cores (one on Zen).
        // n = 4096 − k = −((255·amount + 128 − amount·spread) >> 8), which is
        // (amount·spread − (255·amount + 128) + 255) >> 8: −⌊u/256⌋ = ⌊(255 − u)/256⌋ for any
        // integer u, so the product and the constant are one multiply-add and one shift.
        let n = _mm256_srai_epi32(multiplyAdd(c.kStart, spread, c.amount), 8)
        let k = _mm256_sub_epi32(c.one, n)
        // (c·64k + Y) >> 18 is (c·k + (Y >> 6)) >> 12: c·k is whole, so dropping Y's low six
        // bits first cannot move the result across a multiple of 2^12.
        let y = _mm256_srai_epi32(multiplyAdd(c.round18, y6, n), 6)
        @inline(__always) func channel(_ x: __m256i) -> __m256i {
            _mm256_srai_epi32(multiplyAdd(y, x, k), 12)
        }
        return (channel(br), channel(ga), channel(r), ga)
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
