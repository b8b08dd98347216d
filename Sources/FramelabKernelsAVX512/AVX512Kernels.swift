import FramelabKernels
import FramelabKernelsAVX2
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The avx512 level: this module is compiled with -march=x86-64-v4 (x86-64-v3 plus
/// AVX-512 F, BW, CD, DQ, VL; Package.swift). The colour matrix runs sixteen pixels a step
/// (`avx512IntegerMatrixSixteen` in 16-bit fixed point where the matrix fits, else
/// `avx512MatrixSixteen`), and so do vibrance, luma and radial-gradient pixels
/// (`avx512VibranceSixteen`, `avx512LumaSixteen`, `avx512GradientBGRA`); the other kernels
/// are the portable ones compiled here, which the compiler lowers with AVX-512VL forms of
/// the 256-bit instructions. Use only on a CPU that
/// has x86-64-v4 (`KernelLevel` checks CPUID and the OS's ZMM state).
public enum AVX512Kernels {
    #if arch(x86_64)
    /// True in an x86-64 build (the entry points below exist only there).
    public static let isBuilt = true

    // The entry points `FramelabFilters` puts in the level's `KernelTable`. Plain functions,
    // not a table built here: a value of a type from another module would make this module
    // emit its own copy of that type's helpers (outlined copies, memcpy) under the same
    // shared names as every other module, and the linker keeps one of them, maybe one
    // compiled with AVX512 instructions. Tests check that no such symbol is left here.

    /// The fixed-point step where the matrix has weight words `fixed` (`FixedPointMatrix`),
    /// else the float one on `k`.
    public static func matrix3(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed) -> Int {
        if let fixed {
            let c = avx512IntegerMatrixSplats(fixed)
            return avx512Row(s, d, width) { avx512IntegerMatrixSixteen($0, c) }
        }
        let c = avx512MatrixSplats(k)
        return avx512Row(s, d, width) { avx512MatrixSixteen($0, c) }
    }

    public static func matrix4(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>) -> Int {
        PortableKernels.matrix4(s, d, width, k)
    }

    public static func matrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed,
                                   _ bytes: UnsafePointer<UInt8>, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        fusedMatrixCurve(s, d, width, k, fixed, low, high)
    }

    public static func curve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ bytes: UnsafePointer<UInt8>,
                             _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        PortableKernels.curve(s, d, width, bytes, low, high)
    }

    public static func pairLookup(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ start: Int, _ end: Int,
                                  _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) {
        PortableKernels.pairLookup(s, d, start, end, low, high)
    }

    /// Luma of a BGRA row into gray bytes, sixteen pixels a step in 16-bit multiply-adds
    /// (`avx512LumaSixteen`), the last ones under a mask; returns `width`.
    public static func luma(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int) -> Int {
        var x = 0
        while x &+ 16 <= width {
            (d + x).storeBytes(of: avx512LumaSixteen((s + 4 &* x).loadUnaligned(as: __m512i.self)), as: __m128i.self)
            x &+= 16
        }
        if x < width {
            let mask = avx512PixelMask(width &- x)
            _mm_mask_storeu_epi8(d + x, mask, avx512LumaSixteen(_mm512_maskz_loadu_epi32(mask, s + 4 &* x)))
        }
        return width
    }

    /// Vibrance sixteen pixels a step (`avx512VibranceSixteen`), the last under a mask;
    /// returns `width`. On bgr8 rows this table (no VBMI) uses the avx2 module's loop; the
    /// VBMI table has its own (`AVX512VBMIKernels.vibranceThreeByte`).
    public static func vibrance(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        let c = avx512VibranceSplats(amount)
        return avx512Row(s, d, width) { avx512VibranceSixteen($0, c) }
    }

    // Blend-with-mask and source-over: the avx2 module's (`KernelTables.swift` says why).

    public static func blurInterleave(_ a: UnsafePointer<Int16>, _ b: UnsafePointer<Int16>,
                                      _ out: UnsafeMutablePointer<Int16>, _ n: Int) -> Int {
        PortableKernels.blurInterleave(a, b, out, n)
    }

    public static func blurHorizontal(_ pairs: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>, _ n: Int,
                                      _ channels: Int, _ weights: UnsafePointer<SIMD16<Int16>>, _ count: Int) -> Int {
        PortableKernels.blurHorizontal(pairs, out, n, channels, weights, count, AVX2Kernels.pairProducts)
    }

    public static func blurVertical(_ ring: UnsafePointer<Int16>, _ slots: UnsafePointer<Int>,
                                    _ weights: UnsafePointer<SIMD16<Int16>>, _ count: Int,
                                    _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        PortableKernels.blurVertical(ring, slots, weights, count, dst, n, AVX2Kernels.pairProducts)
    }

    public static func blurVerticalTwo(_ ring: UnsafePointer<Int16>, _ slots: UnsafePointer<Int>,
                                       _ weights: UnsafePointer<SIMD16<Int16>>, _ count: Int,
                                       _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        PortableKernels.blurVerticalTwo(ring, slots, weights, count, first, second, n, AVX2Kernels.pairProducts)
    }

    public static func gradient(_ t: UnsafeMutablePointer<Float>, _ width: Int, _ centreX: Float, _ dy: Float,
                                _ inner: Float, _ span: Float) {
        avx512GradientPositions(t, width, centreX, dy, inner, span)
    }

    public static func gradientBGRA(_ d: UnsafeMutableRawPointer, _ width: Int, _ centreX: Float, _ dy: Float,
                                    _ inner: Float, _ span: Float, _ colours: UnsafePointer<Float>) -> Int {
        avx512GradientBGRA(d, width, centreX, dy, inner, span, colours)
    }

    public static func fill(_ d: UnsafeMutableRawPointer, _ width: Int, _ pattern: UInt32) {
        PortableKernels.fill(d, width, pattern)
    }

    public static func resizeVertical(_ rows: UnsafePointer<UnsafePointer<UInt8>>, _ weights: UnsafePointer<Float>,
                                      _ taps: Int, _ out: UnsafeMutablePointer<Float>, _ n: Int) -> Int {
        PortableKernels.resizeVertical(rows, weights, taps, out, n)
    }

    public static func resizeHorizontal(_ row: UnsafePointer<Float>, _ starts: UnsafePointer<Int32>,
                                        _ weights: UnsafePointer<Float>, _ taps: Int,
                                        _ dst: UnsafeMutablePointer<UInt8>, _ width: Int, _ channels: Int) -> Int {
        PortableKernels.resizeHorizontal(row, starts, weights, taps, dst, width, channels)
    }

    public static func cascadeRow(_ layout: UnsafeRawPointer, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>,
                                  _ maxX: Int, _ step: Int, _ hits: UnsafeMutablePointer<Int32>) -> Int {
        PortableKernels.cascadeRow(layout, sum, squares, maxX, step, hits, AVX512DenseLanes.self, AVX512SparseLanes.self)
    }

    /// The cascade's lane types of this level, with the avx2 level's feature arithmetic
    /// (`AVX2CascadeLanes`: eight lanes, inlined here and so compiled for this level).
    public enum AVX512DenseLanes: AVX2CascadeLanes { public static var step: Int { 1 } }
    public enum AVX512SparseLanes: AVX2CascadeLanes { public static var step: Int { 2 } }

    /// How many pixels the fused loop's lookups trail its matrix step (a multiple of 16).
    static let lag = 32

    /// The sixteen-pixel matrix step on x…x+15 and the pair-table lookups on x−lag…x−lag+15
    /// in one loop (see `AVX2MatrixStep.fusedMatrixCurve`); the last pixels through the
    /// masked step, then the lookups not yet done. Returns `width`. The fixed-point step
    /// where the matrix has weight words `fixed`, else the float one on `k`. Not inlined:
    /// one small loop with the splats in registers.
    @inline(never)
    static func fusedMatrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ k: UnsafePointer<Float>,
                                 _ fixed: UnsafePointer<Int32>?, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        if let fixed {
            let c = avx512IntegerMatrixSplats(fixed)
            return fused(s, d, width, low, high) { avx512IntegerMatrixSixteen($0, c) }
        }
        let c = avx512MatrixSplats(k)
        return fused(s, d, width, low, high) { avx512MatrixSixteen($0, c) }
    }

    /// The fused loop around a matrix step `sixteen`, inlined into each caller with the step.
    @inline(__always)
    private static func fused(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                              _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>,
                              _ sixteen: (__m512i) -> __m512i) -> Int {
        var x = 0
        while x &+ 16 <= width {
            (d + 4 &* x).storeBytes(of: sixteen((s + 4 &* x).loadUnaligned(as: __m512i.self)), as: __m512i.self)
            if x >= lag {
                let p = d + 4 &* (x &- lag)
                PortableKernels.pairLookupEight(p, low, high)
                PortableKernels.pairLookupEight(p + 32, low, high)
            }
            x &+= 16
        }
        if x < width {
            let mask = avx512PixelMask(width &- x)
            _mm512_mask_storeu_epi32(d + 4 &* x, mask, sixteen(_mm512_maskz_loadu_epi32(mask, s + 4 &* x)))
        }
        PortableKernels.pairLookup(UnsafeRawPointer(d), d, Swift.max(0, x &- lag), width, low, high)
        return width
    }
    #else
    /// Not an x86-64 build: no avx512 level.
    public static let isBuilt = false
    #endif
}
