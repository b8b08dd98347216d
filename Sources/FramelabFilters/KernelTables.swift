import FramelabKernels
import FramelabKernelsAVX2
import FramelabKernelsAVX2VNNI
import FramelabKernelsAVX512
import FramelabKernelsAVX512VBMI

extension KernelTable {
    /// The name of the avx512 table with VBMI and VNNI (`avx512VBMI`). Defined on every
    /// architecture, unlike the table: `MatrixCurveKernel` and the tests compare names
    /// with it in arm64 builds too.
    static let avx512VBMIName = "avx512+vbmi+vnni"

    /// The name of the avx2 table with AVX-VNNI (`avx2VNNI`).
    static let avx2VNNIName = "avx2+vnni"
}

#if arch(x86_64)
/// The tables of the x86-64 levels, built here (baseline code) from the plain functions
/// the level modules export: those modules then hold no value of a shared type, so they
/// emit no shared helper the linker could pick for baseline code (`AVX2Kernels`).
extension KernelTable {
    static let avx2 = KernelTable(
        name: "avx2", matrix3: AVX2Kernels.matrix3, matrix3ThreeByte: AVX2Kernels.matrix3ThreeByte, matrix4: AVX2Kernels.matrix4, matrixCurve: AVX2Kernels.matrixCurve,
        matrixCurveThreeByte: AVX2Kernels.matrixCurveThreeByte, curve: AVX2Kernels.curve,
        curveThreeByte: AVX2Kernels.curveThreeByte, pairLookup: AVX2Kernels.pairLookup, luma: AVX2Kernels.luma, lumaThreeByte: { _, _, _ in 0 }, vibrance: AVX2Kernels.vibrance,
        vibranceThreeByte: AVX2Kernels.vibranceThreeByte,
        blend: AVX2Kernels.blend, sourceOver: AVX2Kernels.sourceOver, blurInterleave: AVX2Kernels.blurInterleave, blurHorizontal: AVX2Kernels.blurHorizontal,
        blurVertical: AVX2Kernels.blurVertical, blurVerticalTwo: AVX2Kernels.blurVerticalTwo, gradient: AVX2Kernels.gradient, gradientBGRA: AVX2Kernels.gradientBGRA, fill: AVX2Kernels.fill,
        resizeVertical: AVX2Kernels.resizeVertical, resizeHorizontal: AVX2Kernels.resizeHorizontal,
        cascadeRow: AVX2Kernels.cascadeRow, widenThreeByte: AVX2Kernels.widenThreeByte, narrowThreeByte: AVX2Kernels.narrowThreeByte)

    /// The avx2 level on a CPU with AVX-VNNI: the same table but for the colour matrix, the
    /// fused matrix-curve loop and vibrance (BGRA and bgr8), which multiply and add by
    /// `vpdpwssd` (`AVX2VNNIKernels`).
    static let avx2VNNI = avx2.replacing(name: avx2VNNIName, matrix3: AVX2VNNIKernels.matrix3,
                                         matrix3ThreeByte: AVX2VNNIKernels.matrix3ThreeByte, matrixCurve: AVX2VNNIKernels.matrixCurve,
                                         matrixCurveThreeByte: AVX2VNNIKernels.matrixCurveThreeByte, curve: avx2.curve,
                                         curveThreeByte: avx2.curveThreeByte, vibrance: AVX2VNNIKernels.vibrance,
                                         vibranceThreeByte: AVX2VNNIKernels.vibranceThreeByte, lumaThreeByte: avx2.lumaThreeByte)

    /// Vibrance on BGRA is `AVX2VibranceStep` on 512-bit registers (`avx512VibranceSixteen`);
    /// on bgr8 it is the avx2 level's loop, which any x86-64-v4 CPU runs.
    /// Blend-with-mask and source-over are the avx2 level's loops, on BGRA and on bgr8
    /// (through the buffer, widened by the avx2 module's shuffles inlined there): on bgr8
    /// 1.33–1.45 ms at 1080p on a Xeon family 6 model 207 where the avx512 module's copies
    /// took 1.57–1.74.
    static let avx512 = KernelTable(
        name: "avx512", matrix3: AVX512Kernels.matrix3, matrix3ThreeByte: AVX2Kernels.matrix3ThreeByte, matrix4: AVX512Kernels.matrix4,
        matrixCurve: AVX512Kernels.matrixCurve, matrixCurveThreeByte: AVX2Kernels.matrixCurveThreeByte, curve: AVX512Kernels.curve,
        curveThreeByte: AVX2Kernels.curveThreeByte, pairLookup: AVX512Kernels.pairLookup,
        luma: AVX512Kernels.luma, lumaThreeByte: { _, _, _ in 0 }, vibrance: AVX512Kernels.vibrance, vibranceThreeByte: AVX2Kernels.vibranceThreeByte, blend: AVX2Kernels.blend,
        sourceOver: AVX2Kernels.sourceOver, blurInterleave: AVX512Kernels.blurInterleave, blurHorizontal: AVX512Kernels.blurHorizontal,
        blurVertical: AVX512Kernels.blurVertical, blurVerticalTwo: AVX512Kernels.blurVerticalTwo, gradient: AVX512Kernels.gradient, gradientBGRA: AVX512Kernels.gradientBGRA, fill: AVX512Kernels.fill,
        resizeVertical: AVX512Kernels.resizeVertical, resizeHorizontal: AVX512Kernels.resizeHorizontal,
        cascadeRow: AVX512Kernels.cascadeRow, widenThreeByte: AVX2Kernels.widenThreeByte, narrowThreeByte: AVX2Kernels.narrowThreeByte)

    /// The avx512 level on a CPU with VBMI and VNNI: the same table but for curves and the
    /// fused matrix-curve loop, which look the curve up by byte permutes in registers, the
    /// colour matrix, in 16-bit fixed point where its weights fit, and vibrance, whose
    /// multiply-adds are VNNI's; on bgr8 rows these widen and narrow by `vpermb`, sixteen
    /// pixels a step (`AVX512VBMIThreeByte.swift`).
    static let avx512VBMI = avx512.replacing(name: avx512VBMIName, matrix3: AVX512VBMIKernels.matrix3,
                                             matrix3ThreeByte: AVX512VBMIKernels.matrix3ThreeByte,
                                             matrixCurve: AVX512VBMIKernels.matrixCurve,
                                             matrixCurveThreeByte: AVX512VBMIKernels.matrixCurveThreeByte, curve: AVX512VBMIKernels.curve,
                                             curveThreeByte: AVX512VBMIKernels.curveThreeByte,
                                             vibrance: AVX512VBMIKernels.vibrance, vibranceThreeByte: AVX512VBMIKernels.vibranceThreeByte,
                                             lumaThreeByte: AVX512VBMIKernels.lumaThreeByte)

    /// This table with other matrix, curve, vibrance and bgr8 luma entries (built here, in baseline code, like the tables).
    private func replacing(name: String,
                           matrix3: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, UnsafePointer<Float>,
                                                                     UnsafePointer<Int32>?, ClampNeed) -> Int,
                           matrix3ThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int,
                                                                  UnsafePointer<Int32>) -> Int,
                           matrixCurve: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int,
                                                                         UnsafePointer<Float>, UnsafePointer<Int32>?, ClampNeed,
                                                                         UnsafePointer<UInt8>,
                                                                         UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                           matrixCurveThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int,
                                                                      UnsafePointer<Int32>, UnsafePointer<UInt8>,
                                                                      UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                           curve: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, UnsafePointer<UInt8>,
                                                       UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                           curveThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int,
                                                                UnsafePointer<UInt8>, UnsafePointer<UInt16>,
                                                                UnsafePointer<UInt32>) -> Int,
                           vibrance: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, Int32) -> Int,
                           vibranceThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int,
                                                                   Int32) -> Int,
                           lumaThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Int)
        -> KernelTable {
        KernelTable(name: name, matrix3: matrix3, matrix3ThreeByte: matrix3ThreeByte, matrix4: matrix4, matrixCurve: matrixCurve,
                    matrixCurveThreeByte: matrixCurveThreeByte, curve: curve, curveThreeByte: curveThreeByte,
                    pairLookup: pairLookup, luma: luma, lumaThreeByte: lumaThreeByte, vibrance: vibrance, vibranceThreeByte: vibranceThreeByte, blend: blend, sourceOver: sourceOver,
                    blurInterleave: blurInterleave, blurHorizontal: blurHorizontal, blurVertical: blurVertical, blurVerticalTwo: blurVerticalTwo, gradient: gradient, gradientBGRA: gradientBGRA, fill: fill,
                    resizeVertical: resizeVertical, resizeHorizontal: resizeHorizontal, cascadeRow: cascadeRow,
                    widenThreeByte: widenThreeByte, narrowThreeByte: narrowThreeByte)
    }
}
#endif
