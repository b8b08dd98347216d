#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The avx2 level's cascade lanes (`CascadeLanes`), which the avx512 level's lane types
/// adopt too. The scan is specialised on each module's own lane types, so its
/// specialisations carry that module's name; the feature arithmetic is in intrinsics,
/// inlined into each level's scan (`@inlinable`) and so compiled for that level.
///
/// Written with Swift's SIMD operators, the weighted rectangle sums came out with their
/// lanes regrouped across the products (blends, permutes, scalar multiplies);
/// `vcvtdq2ps`, `vmulps` and `vaddps` keep them whole vectors (bench detectors on
/// haarcascade_frontalface_alt2, Zen 3: 2.5x to 3.0x OpenCV). Same values: the conversion
/// rounds to nearest, and products and sums are single float operations.
public protocol AVX2CascadeLanes: CascadeLanes {}

extension AVX2CascadeLanes {
    @inlinable @inline(__always)
    public static func weighted(_ r: SIMD8<Int32>, _ w: Float) -> SIMD8<Float> {
        _mm256_mul_ps(_mm256_cvtepi32_ps(unsafeBitCast(r, to: __m256i.self)), _mm256_set1_ps(w))
    }

    @inlinable @inline(__always)
    public static func add(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { _mm256_add_ps(a, b) }
}
#endif
