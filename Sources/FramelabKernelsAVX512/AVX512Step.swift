// Compiled into two modules: FramelabKernelsAVX512 (x86-64-v4) and, through a symlink,
// FramelabKernelsAVX512VBMI (v4 + VBMI), whose fused kernels need the same step. Free
// functions and a tuple, no nominal type: a type would bring metadata and value-witness
// helpers under names every module shares (docs/filters.md, "Kernel levels").
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The colour matrix's sixteen-pixel step (3x3 plus bias on B, G, R; alpha kept) in
/// AVX-512 F/BW: the AVX2 step on 512-bit registers. Conversions take one instruction each
/// (round to nearest, ties to even) and saturating packs are the 0…255 clamp; the byte
/// shuffles and packs work within 128-bit lanes, so the same per-lane patterns serve,
/// broadcast to all four lanes. The last pixels of a row go through the same step with
/// masked loads and stores, so a row needs no scalar tail.
///
/// Twelve splatted coefficients (R, G, B rows on R, G, B, then the row's bias), then the
/// shuffles: G and R of each pixel to the low byte of its 32-bit lane, and the packed
/// [B0-3 G0-3 R0-3 A0-3] of each lane back to pixels.
typealias AVX512MatrixSplats = (rr: __m512, rg: __m512, rb: __m512, r0: __m512, gr: __m512, gg: __m512, gb: __m512, g0: __m512,
                                br: __m512, bg: __m512, bb: __m512, b0: __m512, green: __m512i, red: __m512i, interleave: __m512i)

/// `k` is the kernel's 4 x 5 coefficient layout (rows R, G, B, A on R, G, B, A, bias).
@inline(__always)
func avx512MatrixSplats(_ k: UnsafePointer<Float>) -> AVX512MatrixSplats {
    (_mm512_set1_ps(k[0]), _mm512_set1_ps(k[1]), _mm512_set1_ps(k[2]), _mm512_set1_ps(k[4]),
     _mm512_set1_ps(k[5]), _mm512_set1_ps(k[6]), _mm512_set1_ps(k[7]), _mm512_set1_ps(k[9]),
     _mm512_set1_ps(k[10]), _mm512_set1_ps(k[11]), _mm512_set1_ps(k[12]), _mm512_set1_ps(k[14]),
     _mm512_broadcast_i32x4(_mm_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1)),
     _mm512_broadcast_i32x4(_mm_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1)),
     _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)))
}

/// Sixteen BGRA pixels through the matrix.
@inline(__always)
func avx512MatrixSixteen(_ v: __m512i, _ c: AVX512MatrixSplats) -> __m512i {
    let b = _mm512_cvtepi32_ps(_mm512_and_si512(v, _mm512_set1_epi32(0xFF)))
    let g = _mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, c.green))
    let r = _mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, c.red))
    let nr = _mm512_cvtps_epi32(_mm512_fmadd_ps(b, c.rb, _mm512_fmadd_ps(g, c.rg, _mm512_fmadd_ps(r, c.rr, c.r0))))
    let ng = _mm512_cvtps_epi32(_mm512_fmadd_ps(b, c.gb, _mm512_fmadd_ps(g, c.gg, _mm512_fmadd_ps(r, c.gr, c.g0))))
    let nb = _mm512_cvtps_epi32(_mm512_fmadd_ps(b, c.bb, _mm512_fmadd_ps(g, c.bg, _mm512_fmadd_ps(r, c.br, c.b0))))
    let packed = _mm512_packus_epi16(_mm512_packs_epi32(nb, ng), _mm512_packs_epi32(nr, _mm512_srli_epi32(v, 24)))
    return _mm512_shuffle_epi8(packed, c.interleave)
}

/// A whole BGRA row through a sixteen-pixel step, the last pixels through it with masked
/// loads and stores; returns `width`. Inlined at each call with its step.
@inline(__always)
func avx512Row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ sixteen: (__m512i) -> __m512i) -> Int {
    var x = 0
    while x &+ 16 <= width {
        (d + 4 &* x).storeBytes(of: sixteen((s + 4 &* x).loadUnaligned(as: __m512i.self)), as: __m512i.self)
        x &+= 16
    }
    if x < width {
        let mask = avx512PixelMask(width &- x)
        _mm512_mask_storeu_epi32(d + 4 &* x, mask, sixteen(_mm512_maskz_loadu_epi32(mask, s + 4 &* x)))
    }
    return width
}

/// The mask of the first `count` (0…16) 32-bit lanes: masked loads and stores touch only those.
@inline(__always)
func avx512PixelMask(_ count: Int) -> __mmask16 {
    __mmask16(truncatingIfNeeded: (1 &<< count) &- 1)
}
#endif
