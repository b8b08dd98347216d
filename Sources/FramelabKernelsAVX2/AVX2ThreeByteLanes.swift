// Compiled into two modules: FramelabKernelsAVX2 and, through a symlink,
// FramelabKernelsAVX2VNNI (its bgr8 matrix and vibrance loops load and store with these).
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The byte shuffle from `avx2LoadEightThreeByte`'s layout to eight BGRA pixels, one a
/// 32-bit lane, their fourth byte 0.
@inline(__always)
func avx2ThreeByteToBGRA() -> __m256i {
    _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                     4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1)
}

/// Eight pixels in the packs' order (each lane B0…B3, G0…G3, R0…R3, then a fourth byte a
/// pixel, dropped) stored as bgr8 at `q`: a byte shuffle to three bytes a pixel in each
/// lane's first 12 bytes, a dword permute joining the lanes, a 16-byte and an 8-byte store
/// of exactly the 24 bytes, so an in-place row's next pixels are not touched.
@inline(__always)
func avx2StoreEightThreeByte(_ packed: __m256i, _ q: UnsafeMutableRawPointer) {
    let pack = _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1,
                                0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1)
    let joined = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(packed, pack), _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7))
    q.storeBytes(of: _mm256_castsi256_si128(joined), as: __m128i.self)
    // (`_mm256_extracti128_si256` is a macro Swift cannot import; this is the same vextracti128.)
    (q + 16).storeBytes(of: unsafeBitCast(joined, to: SIMD4<UInt64>.self)[2], as: UInt64.self)
}

/// Eight bgr8 pixels at `p`, exactly their 24 bytes, by two 16-byte loads starting 0 and 8
/// bytes in: pixels 0…3 in the low lane's bytes 0…11, 4…7 in the high lane's bytes 4…15.
@inline(__always)
func avx2LoadEightThreeByte(_ p: UnsafeRawPointer) -> __m256i {
    _mm256_set_m128i((p + 8).loadUnaligned(as: __m128i.self), p.loadUnaligned(as: __m128i.self))
}
#endif
