import FramelabKernels
import FramelabKernelsAVX2
import FramelabKernelsAVX512
import FramelabKernelsAVX512VBMI

#if arch(x86_64)
/// The tables of the x86-64 levels, built here (baseline code) from the plain functions
/// the level modules export: those modules then hold no value of a shared type, so they
/// emit no shared helper the linker could pick for baseline code (`AVX2Kernels`).
extension KernelTable {
    static let avx2 = KernelTable(
        name: "avx2", matrix3: AVX2Kernels.matrix3, matrix4: AVX2Kernels.matrix4, matrixCurve: AVX2Kernels.matrixCurve,
        curve: AVX2Kernels.curve, pairLookup: AVX2Kernels.pairLookup, luma: AVX2Kernels.luma, vibrance: AVX2Kernels.vibrance,
        blend: AVX2Kernels.blend, sourceOver: AVX2Kernels.sourceOver, blurHorizontal: AVX2Kernels.blurHorizontal,
        blurVertical: AVX2Kernels.blurVertical, gradient: AVX2Kernels.gradient)

    static let avx512 = KernelTable(
        name: "avx512", matrix3: AVX512Kernels.matrix3, matrix4: AVX512Kernels.matrix4,
        matrixCurve: AVX512Kernels.matrixCurve, curve: AVX512Kernels.curve, pairLookup: AVX512Kernels.pairLookup,
        luma: AVX512Kernels.luma, vibrance: AVX512Kernels.vibrance, blend: AVX512Kernels.blend,
        sourceOver: AVX512Kernels.sourceOver, blurHorizontal: AVX512Kernels.blurHorizontal,
        blurVertical: AVX512Kernels.blurVertical, gradient: AVX512Kernels.gradient)

    /// The avx512 level on a CPU with VBMI: curves and the fused matrix-curve loop by byte
    /// permutes in registers.
    static let avx512VBMI = KernelTable(
        name: "avx512+vbmi", matrix3: AVX512Kernels.matrix3, matrix4: AVX512Kernels.matrix4,
        matrixCurve: AVX512VBMIKernels.matrixCurve, curve: AVX512VBMIKernels.curve, pairLookup: AVX512Kernels.pairLookup,
        luma: AVX512Kernels.luma, vibrance: AVX512Kernels.vibrance, blend: AVX512Kernels.blend,
        sourceOver: AVX512Kernels.sourceOver, blurHorizontal: AVX512Kernels.blurHorizontal,
        blurVertical: AVX512Kernels.blurVertical, gradient: AVX512Kernels.gradient)
}
#endif
