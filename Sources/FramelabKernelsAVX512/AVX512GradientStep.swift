// Free functions and a tuple, no nominal type, for the reason AVX512Step.swift gives.
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// One row's gradient constants: the lanes' offsets 0.5…15.5, the centre, dy², the inner
/// radius and 1 / span (`PortableKernels.gradientPosition` says why a multiply).
typealias AVX512GradientShape = (lanes: __m512, centreX: __m512, dy2: __m512, inner: __m512, scale: __m512)

@inline(__always)
func avx512GradientShape(_ centreX: Float, _ dy: Float, _ inner: Float, _ span: Float) -> AVX512GradientShape {
    (_mm512_set_ps(15.5, 14.5, 13.5, 12.5, 11.5, 10.5, 9.5, 8.5, 7.5, 6.5, 5.5, 4.5, 3.5, 2.5, 1.5, 0.5),
     _mm512_set1_ps(centreX), _mm512_set1_ps(dy * dy), _mm512_set1_ps(inner), _mm512_set1_ps(1 / span))
}

/// t = clamp((|(x + 0.5 − cx, dy)| − inner)·scale, 0, 1) for pixels x…x + 15, clamped on
/// the bits as `unitClamp` does: the portable operations, in order, on sixteen lanes.
@inline(__always)
func avx512GradientPosition(_ x: Int, _ s: AVX512GradientShape) -> __m512 {
    let dx = _mm512_sub_ps(_mm512_add_ps(s.lanes, _mm512_set1_ps(Float(x))), s.centreX)
    let t = _mm512_mul_ps(_mm512_sub_ps(_mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), s.dy2)), s.inner), s.scale)
    return _mm512_castsi512_ps(_mm512_min_epi32(_mm512_max_epi32(_mm512_castps_si512(t), _mm512_setzero_si512()),
                                                _mm512_set1_epi32(0x3F80_0000)))
}

/// Gradient positions for `width` pixels, sixteen a step: the last step may write up to
/// 15 past `width` (the callers' buffers are rounded up to 16).
@inline(__always)
func avx512GradientPositions(_ t: UnsafeMutablePointer<Float>, _ width: Int, _ centreX: Float, _ dy: Float,
                             _ inner: Float, _ span: Float) {
    let shape = avx512GradientShape(centreX, dy, inner, span)
    var x = 0
    while x < width {
        UnsafeMutableRawPointer(t + x).storeBytes(of: avx512GradientPosition(x, shape), as: __m512.self)
        x &+= 16
    }
}

/// Radial-gradient BGRA pixels sixteen a step: `PortableKernels.gradientBGRA` on 512-bit
/// registers, the same Float operations in the same order (no FMA: the portable loop's
/// multiply and add round twice), so every pixel is the bits the other levels make, and the
/// avx2 step's end (conversion, packs, one shuffle: `avx2GradientBGRARow`). The
/// portable loop's eight lanes ran at about 20 cycles a step on Zen 5, which issues
/// 512-bit square roots at the rate of 256-bit ones (4.3 cycles each, C harness).
/// Returns the first pixel not done, a multiple of 8 as the portable loop's is (the last
/// eight by a masked store), so the caller's scalar tail covers the same pixels at every
/// level.
@inline(__always)
func avx512GradientBGRA(_ dst: UnsafeMutableRawPointer, _ width: Int, _ centreX: Float, _ dy: Float,
                        _ inner: Float, _ span: Float, _ colours: UnsafePointer<Float>) -> Int {
    let shape = avx512GradientShape(centreX, dy, inner, span)
    let from = (_mm512_set1_ps(colours[0]), _mm512_set1_ps(colours[1]), _mm512_set1_ps(colours[2]), _mm512_set1_ps(colours[3]))
    let delta = (_mm512_set1_ps(colours[4]), _mm512_set1_ps(colours[5]), _mm512_set1_ps(colours[6]), _mm512_set1_ps(colours[7]))
    let interleave = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15))
    // from + t·delta to Int32, half to even (`avx2GradientBGRARow` says why these are the
    // bytes of the portable loop's add of 2^23 and clamp on the bits).
    @inline(__always) func channel(_ t: __m512, _ f: __m512, _ d: __m512) -> __m512i {
        _mm512_cvtps_epi32(_mm512_add_ps(f, _mm512_mul_ps(t, d)))
    }
    // Saturating packs (the 0…255 clamp) and one byte shuffle back to pixel order.
    @inline(__always) func pixels(_ x: Int) -> __m512i {
        let t = avx512GradientPosition(x, shape)
        let packed = _mm512_packus_epi16(_mm512_packs_epi32(channel(t, from.0, delta.0), channel(t, from.1, delta.1)),
                                         _mm512_packs_epi32(channel(t, from.2, delta.2), channel(t, from.3, delta.3)))
        return _mm512_shuffle_epi8(packed, interleave)
    }
    var x = 0
    while x &+ 16 <= width {
        (dst + 4 &* x).storeBytes(of: pixels(x), as: __m512i.self)
        x &+= 16
    }
    if x &+ 8 <= width {
        _mm512_mask_storeu_epi32(dst + 4 &* x, 0x00FF, pixels(x))
        x &+= 8
    }
    return x
}
#endif
