#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The colour matrix's sixteen-pixel step (3x3 plus bias on B, G, R; alpha kept) in
/// AVX-512 F/BW: `AVX2MatrixStep` on 512-bit registers. The byte shuffles and the packs
/// work within 128-bit lanes, so the same per-lane patterns serve, broadcast to all four
/// lanes. The last pixels of a row (fewer than sixteen) go through the same step with
/// masked loads and stores, so a row needs no scalar tail.
enum AVX512MatrixStep {
    /// A row through the step: see `Step.row`.
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ k: UnsafePointer<Float>) -> Int {
        Step(k).row(s, d, width)
    }

    /// How many pixels the fused loop's lookups trail its matrix step (a multiple of 16).
    static let lag = 32

    /// The sixteen-pixel matrix step on x…x+15 and the pair-table lookups on x−lag…x−lag+15
    /// in one loop (see `AVX2Kernels.matrixCurve`); the last pixels through the masked
    /// step, then the lookups not yet done. Returns `width`.
    @inline(never)
    static func fusedMatrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ k: UnsafePointer<Float>,
                                 _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let step = Step(k)
        var x = 0
        while x &+ 16 <= width {
            (d + 4 &* x).storeBytes(of: step.sixteen((s + 4 &* x).loadUnaligned(as: __m512i.self)), as: __m512i.self)
            if x >= lag {
                let p = d + 4 &* (x &- lag)
                PortableKernels.pairLookupEight(p, low, high)
                PortableKernels.pairLookupEight(p + 32, low, high)
            }
            x &+= 16
        }
        if x < width { step.masked(s, d, at: x, count: width &- x) }
        PortableKernels.pairLookup(UnsafeRawPointer(d), d, Swift.max(0, x &- lag), width, low, high)
        return width
    }
}

/// The step's splatted coefficients and shuffles. File-private: a type visible outside this
/// file gets its metadata and value-witness helpers emitted in builds for testing, and those
/// helpers (`__swift_memcpy…`) have names every module shares (`KernelLevelTests`).
private struct Step {
    // Twelve splatted coefficients: R, G, B rows on R, G, B, then the row's bias.
    let rr, rg, rb, r0, gr, gg, gb, g0, br, bg, bb, b0: __m512
    /// G and R of each pixel to the low byte of its 32-bit lane; packed [B0-3 G0-3 R0-3 A0-3]
    /// of each lane back to pixels.
    let green, red, interleave: __m512i

    /// `k` is the kernel's 4 x 5 coefficient layout (rows R, G, B, A on R, G, B, A, bias).
    @inline(__always)
    init(_ k: UnsafePointer<Float>) {
        rr = _mm512_set1_ps(k[0]); rg = _mm512_set1_ps(k[1]); rb = _mm512_set1_ps(k[2]); r0 = _mm512_set1_ps(k[4])
        gr = _mm512_set1_ps(k[5]); gg = _mm512_set1_ps(k[6]); gb = _mm512_set1_ps(k[7]); g0 = _mm512_set1_ps(k[9])
        br = _mm512_set1_ps(k[10]); bg = _mm512_set1_ps(k[11]); bb = _mm512_set1_ps(k[12]); b0 = _mm512_set1_ps(k[14])
        green = _mm512_broadcast_i32x4(_mm_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1))
        red = _mm512_broadcast_i32x4(_mm_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1))
        interleave = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15))
    }

    /// Sixteen BGRA pixels through the matrix: conversions in one instruction each (round to
    /// nearest, ties to even), saturating packs as the 0…255 clamp, one byte shuffle back.
    @inline(__always)
    func sixteen(_ v: __m512i) -> __m512i {
        let b = _mm512_cvtepi32_ps(_mm512_and_si512(v, _mm512_set1_epi32(0xFF)))
        let g = _mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, green))
        let r = _mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, red))
        let nr = _mm512_cvtps_epi32(_mm512_fmadd_ps(b, rb, _mm512_fmadd_ps(g, rg, _mm512_fmadd_ps(r, rr, r0))))
        let ng = _mm512_cvtps_epi32(_mm512_fmadd_ps(b, gb, _mm512_fmadd_ps(g, gg, _mm512_fmadd_ps(r, gr, g0))))
        let nb = _mm512_cvtps_epi32(_mm512_fmadd_ps(b, bb, _mm512_fmadd_ps(g, bg, _mm512_fmadd_ps(r, br, b0))))
        let packed = _mm512_packus_epi16(_mm512_packs_epi32(nb, ng), _mm512_packs_epi32(nr, _mm512_srli_epi32(v, 24)))
        return _mm512_shuffle_epi8(packed, interleave)
    }

    /// Pixels x…x+count−1 (count 1…16) with masked loads and stores: only those are read
    /// or written.
    @inline(__always)
    func masked(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, at x: Int, count: Int) {
        let mask = __mmask16(truncatingIfNeeded: (1 &<< count) &- 1)
        let v = _mm512_maskz_loadu_epi32(mask, s + 4 &* x)
        _mm512_mask_storeu_epi32(d + 4 &* x, mask, sixteen(v))
    }

    /// A whole BGRA row, `s` to `d` (the same row is fine); returns `width`.
    @inline(never)
    func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int) -> Int {
        var x = 0
        while x &+ 16 <= width {
            (d + 4 &* x).storeBytes(of: sixteen((s + 4 &* x).loadUnaligned(as: __m512i.self)), as: __m512i.self)
            x &+= 16
        }
        if x < width { masked(s, d, at: x, count: width &- x) }
        return width
    }
}
#endif
