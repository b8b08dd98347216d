import FramelabKernels
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The avx2 level's colour-matrix and vibrance kernels on a CPU with AVX-VNNI (Alder Lake
/// and later Intel cores, Zen 5): this module is compiled with -march=x86-64-v3 -mavxvnni,
/// apart from the avx2 module because the compiler may use `vpdpwssd` anywhere in a module
/// built with it, and the first AVX2 CPUs (Haswell, Zen 1 to 4) lack it. `KernelLevel` uses these entries
/// only when CPUID reports it. The fixed-point matrix step is the avx2 module's source with
/// each channel's two multiply-adds and add as two `vpdpwssd` (`AVX2IntegerMatrixStep.swift`),
/// in the matrix and in the fused matrix-curve loop (matrices whose weights do not fit take
/// the same float step as the avx2 table), and in the bgr8 rows' matrix and fused loops;
/// vibrance's products join their sums the same way (`AVX2VibranceStep.swift`).
public enum AVX2VNNIKernels {
    #if arch(x86_64)
    /// True in an x86-64 build (the entry points below exist only there).
    public static let isBuilt = true

    public static func matrix3(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed) -> Int {
        AVX2MatrixStep.row(s, d, width, k, fixed)
    }

    public static func matrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed,
                                   _ bytes: UnsafePointer<UInt8>, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        AVX2MatrixStep.fusedMatrixCurve(s, d, width, k, fixed, low, high)
    }

    /// The bgr8 row loops of the avx2 table (`AVX2ThreeByteMatrix.swift`,
    /// `AVX2ThreeByteMatrixCurve.swift`) on this module's fixed-point step.
    public static func matrix3ThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                        _ fixed: UnsafePointer<Int32>) -> Int {
        avx2IntegerMatrixThreeByteRow(s, d, width, fixed)
    }

    public static func matrixCurveThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                            _ fixed: UnsafePointer<Int32>, _ bytes: UnsafePointer<UInt8>,
                                            _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        avx2IntegerMatrixCurveThreeByteRow(s, d, width, fixed, low, high)
    }

    public static func vibrance(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        AVX2VibranceStep.row(s, d, width, amount)
    }

    public static func vibranceThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                         _ amount: Int32) -> Int {
        AVX2VibranceStep.rowThreeByte(s, d, width, amount)
    }
    #else
    /// Not an x86-64 build: no AVX-VNNI kernels.
    public static let isBuilt = false
    #endif
}
