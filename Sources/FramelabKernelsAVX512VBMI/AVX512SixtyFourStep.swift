#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The fixed-point colour matrix, and a curve with one table for B, G and R, sixty-four
/// BGRA pixels a step. The sixteen-pixel step packs each pixel's B, G, R and alpha into
/// bytes and shuffles them back to pixels before the curve, which then looks up alpha's
/// bytes too, only to keep them. Here the twelve channel vectors of four loads pack into
/// three registers of colour alone, in-lane quarters [B1 G1 R1 B2], [G2 R2 B3 G3] and
/// [R3 B4 G4 R4] (nine packs where four steps take twelve, and no alpha shifts); the curve
/// works on those three (six table lookups where four steps take eight, its half chosen by
/// bit 7 of each byte, `vpmovb2m`, with no channel mask), and two `vpshufb` and two
/// two-register `vpermt2b` turn them into the four pixel registers, whose alpha a blend
/// takes from the loaded pixels: 81 vector instructions for 64 pixels, loads and stores
/// included, where four sixteen-pixel steps take 92 (as compiled by Swift 6.3). On Zen 5
/// (AMD EPYC family 26) the four-operation recipe at 1080p, whose loop this is, went from
/// 0.25-0.26 to 0.21-0.23 ms (docs/filters.md). The matrix alone (`matrix3`) keeps the
/// sixteen-pixel step: this one did not make it faster there.
extension AVX512VBMIKernels {
    /// The byte indices that turn the three colour registers into pixels: `first` and
    /// `fourth` in-lane (`vpshufb` of the first and third register), `second` and `third`
    /// across two registers (`vpermt2b`: bit 6 picks the second register). Alpha's index
    /// bytes (3) are don't-cares: the blend replaces those bytes.
    typealias SixtyFourInterleave = (first: __m512i, second: __m512i, third: __m512i, fourth: __m512i)

    @inline(__always)
    static func sixtyFourInterleave() -> SixtyFourInterleave {
        // Lane L's pixel i of each source vector sits at byte L * 16 + 4 * quarter + i.
        let laneBase = _mm512_set_epi32(0x3030_3030, 0x3030_3030, 0x3030_3030, 0x3030_3030, 0x2020_2020, 0x2020_2020,
                                        0x2020_2020, 0x2020_2020, 0x1010_1010, 0x1010_1010, 0x1010_1010, 0x1010_1010, 0, 0, 0, 0)
        let second = _mm512_add_epi8(laneBase, _mm512_broadcast_i32x4(_mm_setr_epi8(12, 64, 68, 3, 13, 65, 69, 3, 14, 66, 70, 3,
                                                                                       15, 67, 71, 3)))
        let third = _mm512_add_epi8(laneBase, _mm512_broadcast_i32x4(_mm_setr_epi8(8, 12, 64, 3, 9, 13, 65, 3, 10, 14, 66, 3,
                                                                                      11, 15, 67, 3)))
        return (_mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 3, 1, 5, 9, 3, 2, 6, 10, 3, 3, 7, 11, 3)), second, third,
                _mm512_broadcast_i32x4(_mm_setr_epi8(4, 8, 12, 3, 5, 9, 13, 3, 6, 10, 14, 3, 7, 11, 15, 3)))
    }

    /// A whole row through the matrix `c` and the curve `t` (its blue table on every
    /// channel): sixty-four pixels a step, the rest of the row sixteen a step (the same
    /// integers); returns `width`. Each step loads its four registers before it stores, so
    /// the row may be in place.
    @inline(__always)
    static func sixtyFourRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ c: AVX512IntegerMatrixSplats,
                             _ t: CurveTables) -> Int {
        let order = sixtyFourInterleave()
        var x = 0
        while x &+ 64 <= width {
            sixtyFour(s + 4 &* x, d + 4 &* x, c, order, t)
            x &+= 64
        }
        return x &+ avx512Row(s + 4 &* x, d + 4 &* x, width &- x) { sameCurveSixteen(avx512IntegerMatrixSixteen($0, c), t) }
    }

    @inline(__always)
    static func sixtyFour(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ c: AVX512IntegerMatrixSplats,
                          _ order: SixtyFourInterleave, _ t: CurveTables) {
        let v1 = s.loadUnaligned(as: __m512i.self), v2 = (s + 64).loadUnaligned(as: __m512i.self)
        let v3 = (s + 128).loadUnaligned(as: __m512i.self), v4 = (s + 192).loadUnaligned(as: __m512i.self)
        let n1 = avx512IntegerMatrixChannels(v1, c), n2 = avx512IntegerMatrixChannels(v2, c)
        let n3 = avx512IntegerMatrixChannels(v3, c), n4 = avx512IntegerMatrixChannels(v4, c)
        @inline(__always) func bytes(_ a: __m512i, _ b: __m512i, _ c: __m512i, _ d: __m512i) -> __m512i {
            sameCurveOnColourBytes(_mm512_packus_epi16(_mm512_packs_epi32(a, b), _mm512_packs_epi32(c, d)), t)
        }
        let p1 = bytes(n1.b, n1.g, n1.r, n2.b), p2 = bytes(n2.g, n2.r, n3.b, n3.g), p3 = bytes(n3.r, n4.b, n4.g, n4.r)
        let alpha: __mmask64 = 0x8888_8888_8888_8888
        @inline(__always) func store(_ pixels: __m512i, _ loaded: __m512i, _ offset: Int) {
            (d + offset).storeBytes(of: _mm512_mask_blend_epi8(alpha, pixels, loaded), as: __m512i.self)
        }
        store(_mm512_shuffle_epi8(p1, order.first), v1, 0)
        store(_mm512_permutex2var_epi8(p1, order.second, p2), v2, 64)
        store(_mm512_permutex2var_epi8(p2, order.third, p3), v3, 128)
        store(_mm512_shuffle_epi8(p3, order.fourth), v4, 192)
    }

    /// Sixty-four bytes of B, G and R (no alpha) through the curve whose three tables are
    /// the blue one: the lower and upper half's lookups of every byte, and bit 7 picks.
    @inline(__always)
    static func sameCurveOnColourBytes(_ v: __m512i, _ t: CurveTables) -> __m512i {
        let lower = _mm512_permutex2var_epi8(t.b0, v, t.b1), upper = _mm512_permutex2var_epi8(t.b2, v, t.b3)
        return _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lower, upper)
    }
}
#endif
