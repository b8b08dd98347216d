#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The baseline level's colour matrix on x86-64 in 16-bit fixed point (`FixedPointMatrix`),
/// for the matrices whose weights fit, in SSE2, which every x86-64 CPU has: `pmaddwd` on the
/// (B, R) and (G, 256) word pairs gives a channel, `packssdw` and `packuswb` clamp, and four
/// word unpacks put the channels back in pixel order (SSE2 has no byte shuffle). Where SSE2
/// lacks what the float loop needs (Int32 min/max, FMA), this needs none of it. Same bytes
/// as the avx2 and avx512+vbmi+vnni levels' fixed-point steps. On arm64 the float loop,
/// which has FMA there, stays.
extension PortableKernels {
    /// Eight pixels a step, four per 128-bit half; returns the first pixel not done.
    /// `fixed` is the matrix's weight words (`FixedPointMatrix.weights(of:)`).
    @inlinable @inline(__always)
    static func fixedPointMatrix3(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                  _ fixed: UnsafePointer<Int32>) -> Int {
        let w = FixedPointMatrix.weightPairs(fixed)
        let blueRedB = _mm_set1_epi32(w.blueRedB), greenBiasB = _mm_set1_epi32(w.greenBiasB)
        let blueRedG = _mm_set1_epi32(w.blueRedG), greenBiasG = _mm_set1_epi32(w.greenBiasG)
        let blueRedR = _mm_set1_epi32(w.blueRedR), greenBiasR = _mm_set1_epi32(w.greenBiasR)
        let lowBytes = _mm_set1_epi32(0x00FF_00FF), byte = _mm_set1_epi32(0xFF), one = _mm_set1_epi32(0x0100_0000)
        @inline(__always) func four(_ v: __m128i) -> __m128i {
            let blueRed = _mm_and_si128(v, lowBytes)
            // Low words: G; high words: 256 in place of A.
            let greenOne = _mm_or_si128(_mm_and_si128(_mm_srli_epi32(v, 8), byte), one)
            @inline(__always) func channel(_ blueRedWeights: __m128i, _ greenBiasWeights: __m128i) -> __m128i {
                _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(blueRed, blueRedWeights), _mm_madd_epi16(greenOne, greenBiasWeights)), 13)
            }
            let blueGreen = _mm_packs_epi32(channel(blueRedB, greenBiasB), channel(blueRedG, greenBiasG))  // B0-3 G0-3
            let redAlpha = _mm_packs_epi32(channel(blueRedR, greenBiasR), _mm_srli_epi32(v, 24))           // R0-3 A0-3
            let blueRed2 = _mm_unpacklo_epi16(blueGreen, redAlpha)     // B0 R0 B1 R1 …
            let greenAlpha = _mm_unpackhi_epi16(blueGreen, redAlpha)   // G0 A0 G1 A1 …
            return _mm_packus_epi16(_mm_unpacklo_epi16(blueRed2, greenAlpha), _mm_unpackhi_epi16(blueRed2, greenAlpha))
        }
        var x = 0
        while x &+ 8 <= width {
            let p = src + 4 &* x, q = dst + 4 &* x
            let low = four(p.loadUnaligned(as: __m128i.self)), high = four((p + 16).loadUnaligned(as: __m128i.self))
            q.storeBytes(of: low, as: __m128i.self)
            (q + 16).storeBytes(of: high, as: __m128i.self)
            x &+= 8
        }
        return x
    }
}
#endif
