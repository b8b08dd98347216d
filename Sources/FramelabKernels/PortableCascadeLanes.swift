#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The portable level's cascade lanes (`CascadeLanes`). On x86-64 their feature arithmetic
/// is in SSE2 intrinsics, four lanes at a time: written with Swift's SIMD operators it came
/// out with its lanes regrouped across the products (shuffles, scalar multiplies; the
/// `FRAMELAB_ISA=baseline` scan of haarcascade_frontalface_alt2 ran at 2.45x OpenCV with
/// them). Elsewhere (arm64) the operators and `exactFloats` serve.
public protocol PortableCascadeLanes: CascadeLanes {}
public enum PortableDenseLanes: PortableCascadeLanes { public static var step: Int { 1 } }
public enum PortableSparseLanes: PortableCascadeLanes { public static var step: Int { 2 } }

#if arch(x86_64)
extension PortableCascadeLanes {
    @inlinable @inline(__always)
    public static func weighted(_ r: SIMD8<Int32>, _ w: Float) -> SIMD8<Float> {
        let weight = _mm_set1_ps(w)
        let low = _mm_mul_ps(_mm_cvtepi32_ps(unsafeBitCast(r.lowHalf, to: __m128i.self)), weight)
        let high = _mm_mul_ps(_mm_cvtepi32_ps(unsafeBitCast(r.highHalf, to: __m128i.self)), weight)
        return SIMD8(lowHalf: low, highHalf: high)
    }

    @inlinable @inline(__always)
    public static func add(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        SIMD8(lowHalf: _mm_add_ps(a.lowHalf, b.lowHalf), highHalf: _mm_add_ps(a.highHalf, b.highHalf))
    }
}
#endif

/// Integers as floats, rounded to nearest as a conversion instruction rounds them.
/// `SIMD8<Float>(_:)` is a generic lane loop that the optimiser turned into half-width
/// conversions, permutes and blends. Here each value goes as its high and low 16 bits:
/// adding x (|x| < 2^22) to the bits of 1.5·2^23 and subtracting 1.5·2^23 in float gives
/// x exactly, hi·2^16 is exact, and one rounded addition joins them.
@usableFromInline @inline(__always)
func exactFloats(_ v: SIMD8<Int32>) -> SIMD8<Float> {
    typealias Ints = SIMD8<Int32>
    typealias Floats = SIMD8<Float>
    @inline(__always) func exact(_ x: Ints) -> Floats {
        unsafeBitCast(x &+ Ints(repeating: 0x4B40_0000), to: Floats.self) - Floats(repeating: 12_582_912)
    }
    return exact(v &>> 16) * Floats(repeating: 65_536) + exact(v & Ints(repeating: 0xFFFF))
}
