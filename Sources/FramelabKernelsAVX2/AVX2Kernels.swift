import FramelabKernels
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The avx2 level: this module is compiled with -march=x86-64-v3 (AVX2, FMA, BMI1/2, …;
/// Package.swift), so the portable kernels inlined here run on 256-bit registers, and the
/// colour matrix and vibrance use AVX2 intrinsics (`AVX2MatrixStep`, `AVX2VibranceStep`). Use only on a CPU that has
/// x86-64-v3 (`KernelLevel` checks CPUID).
public enum AVX2Kernels {
    #if arch(x86_64)
    /// True in an x86-64 build (the entry points below exist only there).
    public static let isBuilt = true

    // The entry points `FramelabFilters` puts in the level's `KernelTable`. Plain functions,
    // not a table built here: a value of a type from another module would make this module
    // emit its own copy of that type's helpers (outlined copies, memcpy) under the same
    // shared names as every other module, and the linker keeps one of them, maybe one
    // compiled with AVX2 instructions. Tests check that no such symbol is left here.

    public static func matrix3(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed) -> Int {
        AVX2MatrixStep.row(s, d, width, k, fixed)
    }

    public static func matrix4(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>) -> Int {
        PortableKernels.matrix4(s, d, width, k)
    }

    public static func matrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed,
                                   _ bytes: UnsafePointer<UInt8>, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        AVX2MatrixStep.fusedMatrixCurve(s, d, width, k, fixed, low, high)
    }

    public static func curve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ bytes: UnsafePointer<UInt8>,
                             _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        PortableKernels.curve(s, d, width, bytes, low, high)
    }

    public static func pairLookup(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ start: Int, _ end: Int,
                                  _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) {
        PortableKernels.pairLookup(s, d, start, end, low, high)
    }

    public static func luma(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int) -> Int {
        PortableKernels.luma(s, d, width)
    }

    public static func vibrance(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        AVX2VibranceStep.row(s, d, width, amount)
    }

    public static func vibranceThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                         _ amount: Int32) -> Int {
        AVX2VibranceStep.rowThreeByte(s, d, width, amount)
    }

    public static func blend(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ m: UnsafePointer<UInt8>,
                             _ d: UnsafeMutablePointer<UInt8>, _ width: Int, _ channels: Int) -> Int {
        PortableKernels.blend(f, b, m, d, width, channels,
                              widen: AVX2Kernels.widenThreeByte, narrow: AVX2Kernels.narrowThreeByte)
    }

    public static func sourceOver(_ t: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>,
                                  _ width: Int, _ channels: Int) {
        PortableKernels.sourceOver(t, b, d, width, channels,
                                   widen: AVX2Kernels.widenThreeByte, narrow: AVX2Kernels.narrowThreeByte)
    }

    /// `vpmaddwd` on 256 bits: eight sums of adjacent 16-bit products (the blur's two taps
    /// at once; `PortableKernels.pairProducts` does it on 128-bit halves). Inlined by force
    /// into this module's and the avx512 module's blur loops.
    @inlinable @inline(__always)
    public static func pairProducts(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
        unsafeBitCast(_mm256_madd_epi16(unsafeBitCast(a, to: __m256i.self), unsafeBitCast(b, to: __m256i.self)),
                      to: SIMD8<Int32>.self)
    }

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
        PortableKernels.gradient(t, width, centreX, dy, inner, span)
    }

    /// Radial-gradient pixels: `avx2GradientBGRARow` (AVX2GradientStep.swift).
    public static func gradientBGRA(_ d: UnsafeMutableRawPointer, _ width: Int, _ centreX: Float, _ dy: Float,
                                    _ inner: Float, _ span: Float, _ colours: UnsafePointer<Float>) -> Int {
        avx2GradientBGRARow(d, width, centreX, dy, inner, span, colours)
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
        PortableKernels.cascadeRow(layout, sum, squares, maxX, step, hits, AVX2DenseLanes.self, AVX2SparseLanes.self)
    }

    /// The cascade's lane types of this level (AVX2CascadeLanes.swift).
    public enum AVX2DenseLanes: AVX2CascadeLanes { public static var step: Int { 1 } }
    public enum AVX2SparseLanes: AVX2CascadeLanes { public static var step: Int { 2 } }

    #else
    /// Not an x86-64 build: no avx2 level.
    public static let isBuilt = false
    #endif
}
