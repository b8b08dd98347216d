import FramelabCore
import FramelabKernels

/// A colour matrix followed by per-channel curves (a recipe's "sepia ∘ hue ∘ … → gamma"),
/// in one loop over each BGRA row (the level's `matrixCurve`).
///
/// The matrix is vector work (FMAs on the floating-point pipes); the curve is two pair-
/// table lookups per pixel (`PairCurveTables`), scalar loads on the integer pipes and
/// load ports, since x86 has no byte gather. Run one after the other they add up; in the
/// same loop the out-of-order core runs them side by side. With AVX-512 VBMI the curve is
/// byte permutes on the matrix step's result in registers, one store (`AVX512VBMIKernels`).
/// Otherwise, on the avx2 and avx512 levels
/// the lookups trail the vector part by `lag` pixels of the output row, so they read
/// pixels the vector stores wrote a few iterations earlier (already in L1, and not waiting
/// on store forwarding from a wide store into a 4-byte load); the baseline level runs the
/// matrix over the row, then the lookups.
struct MatrixCurveKernel {
    let matrix: ColorMatrixKernel
    let curves: ChannelCurves
    let pairs: PairCurveTables
    /// How far the lookups trail the matrix on the avx2 and avx512 levels (for `explain`).
    static let lag = 32

    /// How the fused loop of `table`'s level works, for `explain`.
    static func loopSummary(_ table: KernelTable) -> String {
        switch table.name {
        case KernelTable.avx512VBMIName:  // KernelTable.avx512VBMI (x86-64 builds only)
            return "vector multiply-adds, then byte-permute lookups on the same registers, one store"
        case KernelTable.portable.name:
            return "vector multiply-adds over the row, then its pair-table lookups"
        default:
            return "vector multiply-adds, pair-table lookups \(lag) pixels behind"
        }
    }

    /// Whether `table`'s level runs `matrix` then curves on bgr8 rows straight from the
    /// three-byte pixels (`matrixCurveThreeByte`: the avx2 and avx512 levels, for a matrix
    /// with fixed-point weights), for `explain`.
    static func runsThreeByteStraight(_ matrix: ColorMatrix, _ table: KernelTable) -> Bool {
        table.name != KernelTable.portable.name && ColorMatrixKernel(matrix, kernels: table).fixedPoint != nil
    }

    init(matrix: ColorMatrixKernel, curves: ChannelCurves) {
        self.matrix = matrix
        self.curves = curves
        pairs = PairCurveTables(curves)
    }

    /// True when the pair can run fused: BGRA or BGR with alpha kept (bgr8 straight from its
    /// three-byte pixels at the avx2 and avx512 levels when the matrix has fixed-point
    /// weights, `KernelTable.matrixCurveThreeByte`, else through a BGRA buffer 64 pixels at a
    /// time, `PortableKernels.throughBGRA`); other inputs run the two steps one after the other.
    static func fuses(_ matrix: ColorMatrix, format: PixelFormat) -> Bool {
        (format == .bgra8 || format == .bgr8) && matrix.keepsAlpha
    }

    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        guard Self.fuses(matrix.matrix, format: input.format) else {
            matrix.apply(input, into: output, rows: rows)
            curves.applyTables(output, into: output, rows: rows)
            return
        }
        let width = input.width, kernels = matrix.kernels, clamp = matrix.clamp
        matrix.withCoefficients { k, fixed in
            pairs.withTables { bytes, low, high in
                forEachRowPair(input, output, rows: rows) { s, d in
                    guard input.format == .bgra8 else {
                        // Straight on the three-byte pixels where the level has the loop and
                        // the matrix fixed-point weights; else through the BGRA buffer.
                        var done = fixed.map { kernels.matrixCurveThreeByte(s, d, width, $0, bytes, low, high) } ?? 0
                        if done == 0 {
                            done = PortableKernels.throughBGRA(s, d, width, kernels) { c, o, n in
                                kernels.matrixCurve(c, o, n, k, fixed, clamp, bytes, low, high)
                            }
                        }
                        // The last pixels: matrix in scalar, then the curve's byte tables.
                        matrix.applyRowTail(s, d, from: done, to: width, step: 3, k)
                        let rest = d + 3 * done
                        lookUpRow(rest, rest, width: width - done, step: 3, bytes, bytes + 256, bytes + 512)
                        return
                    }
                    let done = kernels.matrixCurve(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), width, k, fixed, clamp,
                                                   bytes, low, high)
                    // The last pixels (fewer than a vector): matrix in scalar, then their lookups.
                    matrix.applyRowTail(s, d, from: done, to: width, step: 4, k)
                    kernels.pairLookup(UnsafeRawPointer(d), UnsafeMutableRawPointer(d), done, width, low, high)
                }
            }
        }
    }
}

/// A colour matrix and the curves after it, fused, as one recipe step's kernel.
final class MatrixCurveOperationKernel: OperationKernel {
    let vector: MatrixCurveKernel

    init(_ vector: MatrixCurveKernel) { self.vector = vector }

    func applyScalar(_ input: Mat, into output: Mat) {
        vector.matrix.matrix.applyScalar(input, into: output)
        vector.curves.applyScalar(output, into: output)
    }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        vector.apply(input, into: output, rows: rows)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try ColorMatrixOperationKernel(vector.matrix).applyOpenCV(input, into: output)
        try vector.curves.applyOpenCV(output, into: output)
    }
}
