// Compiled into two modules: FramelabKernelsAVX2 and, through a symlink,
// FramelabKernelsAVX2VNNI (FRAMELAB_VNNI: `AVX2VNNIKernels` calls the row loop).
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The fixed-point colour matrix straight on bgr8 rows, eight pixels (24 bytes) a step with
/// no buffer between: one byte shuffle spreads the pixels' B and R to 16-bit words, another
/// their G beside the bias's 1, `avx2IntegerMatrixChannels` gives the three channels, and
/// the pack's byte shuffle writes them back as three bytes a pixel. Through the BGRA buffer
/// (`PortableKernels.throughBGRA`) the same step took a widening shuffle, a 32-byte store
/// and load each way, and a narrowing shuffle and permute more: 1080p bgr8 sepia 1.45 ms at
/// avx2 where OpenCV's `transform` took 1.24 (Xeon family 6 model 207).
#if !FRAMELAB_VNNI
extension AVX2Kernels {
    /// Pixels 0..<(a multiple of 8) of a bgr8 row, `s` to `d` (the same row is fine: a step
    /// reads its 24 bytes before it stores them and stores exactly those), through the matrix
    /// of the weight words `fixed`; returns how many it did.
    public static func matrix3ThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                        _ fixed: UnsafePointer<Int32>) -> Int {
        avx2IntegerMatrixThreeByteRow(s, d, width, fixed)
    }
}
#endif

/// Byte shuffles from eight bgr8 pixels as `avx2LoadEightThreeByte` loads them to the
/// fixed-point step's inputs: each pixel's B and R as 16-bit words of its 32-bit lane, and
/// its G in the low word.
@inline(__always)
func avx2ThreeByteSpreads() -> (blueRed: __m256i, green: __m256i) {
    (_mm256_setr_epi8(0, -1, 2, -1, 3, -1, 5, -1, 6, -1, 8, -1, 9, -1, 11, -1,
                      4, -1, 6, -1, 7, -1, 9, -1, 10, -1, 12, -1, 13, -1, 15, -1),
     _mm256_setr_epi8(1, -1, -1, -1, 4, -1, -1, -1, 7, -1, -1, -1, 10, -1, -1, -1,
                      5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1, 14, -1, -1, -1))
}

/// Eight bgr8 pixels at `p` through the fixed-point matrix, in the packs' order: each lane
/// B0…B3, G0…G3, R0…R3 and four zero bytes (its four pixels). Both three-byte loops take
/// their step from here and differ only in where the result goes.
@inline(__always)
func avx2IntegerMatrixThreeBytePacked(_ p: UnsafeRawPointer, _ c: AVX2IntegerMatrixSplats,
                                      _ spreads: (blueRed: __m256i, green: __m256i)) -> __m256i {
    let v = avx2LoadEightThreeByte(p)
    #if FRAMELAB_VNNI
    // The bias is each sum's start and the high word's weight 0 (`avx2IntegerMatrixSplats`).
    let greenHigh = _mm256_shuffle_epi8(v, spreads.green)
    #else
    let greenHigh = _mm256_or_si256(_mm256_shuffle_epi8(v, spreads.green), _mm256_set1_epi32(0x0100_0000))
    #endif
    let (nb, ng, nr) = avx2IntegerMatrixChannels(_mm256_shuffle_epi8(v, spreads.blueRed), greenHigh, c)
    return _mm256_packus_epi16(_mm256_packs_epi32(nb, ng), _mm256_packs_epi32(nr, _mm256_setzero_si256()))
}

/// The loop of `AVX2Kernels.matrix3ThreeByte`; not inlined: one small loop with the splats
/// and shuffles in registers.
@inline(never)
func avx2IntegerMatrixThreeByteRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                   _ fixed: UnsafePointer<Int32>) -> Int {
    let c = avx2IntegerMatrixSplats(fixed), spreads = avx2ThreeByteSpreads()
    var x = 0
    while x &+ 8 <= width {
        let packed = avx2IntegerMatrixThreeBytePacked(UnsafeRawPointer(s + 3 &* x), c, spreads)
        avx2StoreEightThreeByte(packed, UnsafeMutableRawPointer(d + 3 &* x))
        x &+= 8
    }
    return x
}
#endif
