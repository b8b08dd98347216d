#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The avx512 level's cascade lanes (`CascadeLanes`): the scan is specialised on this
/// module's own lane types, so its specialisations carry this module's name, and the
/// feature arithmetic is in intrinsics. Written with Swift's SIMD operators, the weighted
/// rectangle sums came out with their lanes regrouped across the products (blends,
/// permutes, scalar multiplies); `vcvtdq2ps`, `vmulps` and `vaddps` keep them whole
/// vectors (haarcascade_frontalface_alt2 at 1.1: about 10% of the scan). Same values: the
/// conversion rounds to nearest, and products and sums are single float operations.
public protocol AVX512CascadeLanes: CascadeLanes {}

extension AVX512CascadeLanes {
    @inline(__always)
    public static func weighted(_ r: SIMD8<Int32>, _ w: Float, _ small: Bool) -> SIMD8<Float> {
        _mm256_mul_ps(_mm256_cvtepi32_ps(unsafeBitCast(r, to: __m256i.self)), _mm256_set1_ps(w))
    }

    @inline(__always)
    public static func add(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { _mm256_add_ps(a, b) }
}
#endif
