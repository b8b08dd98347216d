#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// bgr8 to BGRA and back, eight pixels a step by one byte shuffle each way, for the kernels
/// that run bgr8 rows through a BGRA buffer (`KernelTable.widenThreeByte`,
/// `narrowThreeByte`); the portable loops take a load, a mask and a store per pixel.
extension AVX2Kernels {
    /// Pixels 0..<n of a bgr8 row at `s` as BGRA with `alpha` (bits 24…31) at `d`, eight at a
    /// time; returns how many it did. A step reads exactly its 24 bytes: the upper half
    /// loads the 16 bytes ending with pixel 7, so nothing past the pixels asked for is read.
    public static func widenThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt32>, _ n: Int,
                                      _ alpha: UInt32) -> Int {
        let spread = avx2ThreeByteToBGRA()
        let a = _mm256_set1_epi32(Int32(bitPattern: alpha))
        var x = 0
        while x &+ 8 <= n {
            let v = avx2LoadEightThreeByte(UnsafeRawPointer(s + 3 &* x))
            UnsafeMutableRawPointer(d + x).storeBytes(of: _mm256_or_si256(_mm256_shuffle_epi8(v, spread), a), as: __m256i.self)
            x &+= 8
        }
        return x
    }

    /// BGRA pixels at `s` as bgr8 at `d`, eight at a time: each half packed to 12 bytes, the
    /// halves joined by a dword permute, one 32-byte store whose last 8 bytes the next step
    /// overwrites. So that nothing past pixel n is written (an in-place row's next source
    /// bytes), it stops 8 pixels short: returns how many it did, the caller narrows the rest.
    public static func narrowThreeByte(_ s: UnsafePointer<UInt32>, _ d: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        let pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1)
        let join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7)
        var x = 0
        while x &+ 16 <= n {
            let v = UnsafeRawPointer(s + x).loadUnaligned(as: __m256i.self)
            UnsafeMutableRawPointer(d + 3 &* x).storeBytes(of: _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pack), join),
                                                           as: __m256i.self)
            x &+= 8
        }
        return x
    }
}
#endif
