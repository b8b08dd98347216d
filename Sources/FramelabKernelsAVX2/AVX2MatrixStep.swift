#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The colour matrix's eight-pixel step (3x3 plus bias on B, G, R; alpha kept) in AVX2
/// instructions that Swift's SIMD types do not reach:
/// - `vcvtdq2ps` / `vcvtps2dq` convert between Int32 and Float in one instruction each
///   (round to nearest, ties to even);
/// - `vpackssdw` then `vpackuswb` narrow to bytes with saturation, which is the 0…255
///   clamp for free, so no matrix needs a loop specialised for its clamps;
/// - one `vpshufb` puts the packed channels back in B, G, R, A order per pixel.
///
/// Measured at 1080p on one thread (Zen 1, idle): 2.0–2.2 ms per frame against 3.0 ms
/// for the portable `SIMD8` loop, which spends its time on the 2^23 rounding trick,
/// integer min/max clamps and shifts to re-interleave (docs/filters.md). The packs clamp
/// for free, so every 3x3 matrix costs the same and `ClampNeed` is not consulted.
enum AVX2MatrixStep {
    /// A row through the fixed-point step where the matrix has weight words `fixed`
    /// (`FixedPointMatrix`), else through the float one on `k` (`Step.row`).
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ k: UnsafePointer<Float>,
                    _ fixed: UnsafePointer<Int32>?) -> Int {
        if let fixed { return avx2IntegerMatrixRow(s, d, width, fixed) }
        return Step(k).row(s, d, width)
    }

    /// How many pixels the fused loop's lookups trail its matrix step.
    static let lag = 32

    /// The AVX2 matrix on pixels x…x+7 and the pair-table lookups on x−lag…x−lag+7 in one
    /// loop: the matrix keeps the vector pipes busy, the lookups the integer pipes and load
    /// ports, and the lag lets them read lines whose vector stores have completed. The
    /// fixed-point step (`avx2IntegerMatrixEight`) where the matrix has weight words
    /// `fixed`, else the float one on `k`. Not inlined: one small loop with the splats and
    /// shuffles in registers.
    @inline(never)
    static func fusedMatrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ k: UnsafePointer<Float>,
                                 _ fixed: UnsafePointer<Int32>?, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        if let fixed {
            let c = avx2IntegerMatrixSplats(fixed)
            return fused(s, d, width, low, high) { avx2IntegerMatrixEight($0, c) }
        }
        let step = Step(k)
        let green = step.greenLanes, red = step.redLanes, interleave = step.interleave
        return fused(s, d, width, low, high) { step.eight($0, green: green, red: red, interleave: interleave) }
    }

    /// The fused loop around a matrix step `eight`, inlined into each caller with the step.
    @inline(__always)
    private static func fused(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                              _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>,
                              _ eight: (__m256i) -> __m256i) -> Int {
        var x = 0
        while x &+ 8 <= width {
            (d + 4 &* x).storeBytes(of: eight((s + 4 &* x).loadUnaligned(as: __m256i.self)), as: __m256i.self)
            if x >= lag { PortableKernels.pairLookupEight(d + 4 &* (x &- lag), low, high) }
            x &+= 8
        }
        // The lookups the loop has not reached yet.
        PortableKernels.pairLookup(UnsafeRawPointer(d), d, Swift.max(0, x &- lag), x, low, high)
        return x
    }
}

/// The step's splatted coefficients and shuffles. File-private: a type visible outside this
/// file gets its metadata and value-witness helpers emitted in builds for testing, and those
/// helpers (`__swift_memcpy…`) have names every module shares (`KernelLevelTests`).
private struct Step {
    // Twelve splatted coefficients: R, G, B rows on R, G, B, then the row's bias.
    let rr, rg, rb, r0, gr, gg, gb, g0, br, bg, bb, b0: __m256

    /// `k` is the kernel's 4 x 5 coefficient layout (rows R, G, B, A on R, G, B, A, bias).
    init(_ k: UnsafePointer<Float>) {
        rr = _mm256_set1_ps(k[0]); rg = _mm256_set1_ps(k[1]); rb = _mm256_set1_ps(k[2]); r0 = _mm256_set1_ps(k[4])
        gr = _mm256_set1_ps(k[5]); gg = _mm256_set1_ps(k[6]); gb = _mm256_set1_ps(k[7]); g0 = _mm256_set1_ps(k[9])
        br = _mm256_set1_ps(k[10]); bg = _mm256_set1_ps(k[11]); bb = _mm256_set1_ps(k[12]); b0 = _mm256_set1_ps(k[14])
    }

    /// Byte shuffles (each 128-bit half on its own four pixels): G and R of each pixel to
    /// the low byte of its 32-bit lane, and the packed [B0-3 G0-3 R0-3 A0-3] back to pixels.
    /// Stored, not static, so a row does not pass through three lazy-global checks.
    let greenLanes = _mm256_setr_epi8(1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1,
                                      1, -1, -1, -1, 5, -1, -1, -1, 9, -1, -1, -1, 13, -1, -1, -1)
    let redLanes = _mm256_setr_epi8(2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1,
                                    2, -1, -1, -1, 6, -1, -1, -1, 10, -1, -1, -1, 14, -1, -1, -1)
    let interleave = avx2PacksToPixels()

    /// Eight BGRA pixels through the matrix. The shuffles are passed in so a row loop
    /// keeps them in locals (registers, or one spill slot) rather than re-reading `self`.
    @inline(__always)
    func eight(_ v: __m256i, green: __m256i, red: __m256i, interleave: __m256i) -> __m256i {
        let b = _mm256_cvtepi32_ps(_mm256_and_si256(v, _mm256_set1_epi32(0xFF)))
        let g = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(v, green))
        let r = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(v, red))
        let nr = _mm256_cvtps_epi32(_mm256_fmadd_ps(b, rb, _mm256_fmadd_ps(g, rg, _mm256_fmadd_ps(r, rr, r0))))
        let ng = _mm256_cvtps_epi32(_mm256_fmadd_ps(b, gb, _mm256_fmadd_ps(g, gg, _mm256_fmadd_ps(r, gr, g0))))
        let nb = _mm256_cvtps_epi32(_mm256_fmadd_ps(b, bb, _mm256_fmadd_ps(g, bg, _mm256_fmadd_ps(r, br, b0))))
        // Int32 → Int16 → UInt8 with saturation; alpha rides along unchanged (0…255).
        let packed = _mm256_packus_epi16(_mm256_packs_epi32(nb, ng), _mm256_packs_epi32(nr, _mm256_srli_epi32(v, 24)))
        return _mm256_shuffle_epi8(packed, interleave)
    }

    /// The vector part of one BGRA row, `s` to `d` (the same row is fine); returns the
    /// first pixel not done. Not inlined: one small loop with the splats in registers.
    @inline(never)
    func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int) -> Int {
        let green = greenLanes, red = redLanes, interleave = self.interleave
        var x = 0
        while x &+ 8 <= width {
            let v = (s + 4 &* x).loadUnaligned(as: __m256i.self)
            (d + 4 &* x).storeBytes(of: eight(v, green: green, red: red, interleave: interleave), as: __m256i.self)
            x &+= 8
        }
        return x
    }
}
#endif
