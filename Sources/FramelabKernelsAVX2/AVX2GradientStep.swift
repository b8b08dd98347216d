// Free functions and a tuple, no new nominal type (AVX2IntegerMatrixStep.swift says why).
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// Radial-gradient BGRA pixels eight a step: `PortableKernels.gradientBGRA`'s Float
/// operations in its order (no FMA: its multiply and add round twice), so the same bits,
/// with a shorter end. Each channel, from + t·delta, goes to Int32 by one `vcvtps2dq`
/// (half to even, as the portable loop's add of 2^23 rounds), and the colour matrix's
/// saturating packs and byte shuffle clamp to 0…255 and interleave, where the portable loop
/// clamps each channel on its bits (two min/max) and shifts and ORs: 24 vector
/// instructions a step in place of 35. The two give the same byte for every value of
/// magnitude below 2^31 (beyond it the conversion gives INT32_MIN); the filter's colours
/// are on 0…255, so a channel lies within −255…510.
typealias AVX2GradientSplats = (lanes: __m256, centreX: __m256, dy2: __m256, inner: __m256, scale: __m256,
                                from: (__m256, __m256, __m256, __m256), delta: (__m256, __m256, __m256, __m256),
                                interleave: __m256i)

@inline(__always)
func avx2GradientSplats(_ centreX: Float, _ dy: Float, _ inner: Float, _ span: Float,
                        _ colours: UnsafePointer<Float>) -> AVX2GradientSplats {
    (_mm256_setr_ps(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5), _mm256_set1_ps(centreX), _mm256_set1_ps(dy * dy),
     _mm256_set1_ps(inner), _mm256_set1_ps(1 / span),
     (_mm256_set1_ps(colours[0]), _mm256_set1_ps(colours[1]), _mm256_set1_ps(colours[2]), _mm256_set1_ps(colours[3])),
     (_mm256_set1_ps(colours[4]), _mm256_set1_ps(colours[5]), _mm256_set1_ps(colours[6]), _mm256_set1_ps(colours[7])),
     avx2PacksToPixels())
}

/// The row loop; returns the first pixel not done (a multiple of 8, as the portable loop's
/// is, so the caller's scalar tail covers the same pixels at every level). Not inlined:
/// one small loop with the splats in registers.
@inline(never)
func avx2GradientBGRARow(_ dst: UnsafeMutableRawPointer, _ width: Int, _ centreX: Float, _ dy: Float,
                         _ inner: Float, _ span: Float, _ colours: UnsafePointer<Float>) -> Int {
    let c = avx2GradientSplats(centreX, dy, inner, span, colours)
    let one = _mm256_set1_epi32(0x3F80_0000)
    @inline(__always) func channel(_ t: __m256, _ from: __m256, _ delta: __m256) -> __m256i {
        _mm256_cvtps_epi32(_mm256_add_ps(from, _mm256_mul_ps(t, delta)))
    }
    var x = 0
    while x &+ 8 <= width {
        // t = clamp((|(x + 0.5 − cx, dy)| − inner)·scale, 0, 1), clamped on the bits as
        // `PortableKernels.unitClamp` does.
        let dx = _mm256_sub_ps(_mm256_add_ps(c.lanes, _mm256_set1_ps(Float(x))), c.centreX)
        let raw = _mm256_mul_ps(_mm256_sub_ps(_mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), c.dy2)), c.inner), c.scale)
        let t = _mm256_castsi256_ps(_mm256_min_epi32(_mm256_max_epi32(_mm256_castps_si256(raw), _mm256_setzero_si256()), one))
        let packed = _mm256_packus_epi16(_mm256_packs_epi32(channel(t, c.from.0, c.delta.0), channel(t, c.from.1, c.delta.1)),
                                         _mm256_packs_epi32(channel(t, c.from.2, c.delta.2), channel(t, c.from.3, c.delta.3)))
        (dst + 4 &* x).storeBytes(of: _mm256_shuffle_epi8(packed, c.interleave), as: __m256i.self)
        x &+= 8
    }
    return x
}
#endif
