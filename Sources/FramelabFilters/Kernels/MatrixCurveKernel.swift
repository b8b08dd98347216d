import FramelabCore
#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
import _Builtin_intrinsics.intel
#endif

/// A colour matrix followed by per-channel curves (a recipe's "sepia ∘ hue ∘ … → gamma"),
/// in one loop over each BGRA row.
///
/// The matrix is vector work (FMAs on the floating-point pipes); the curve is two pair-
/// table lookups per pixel (`PairCurveTables`), scalar loads on the integer pipes and
/// load ports, since x86 has no byte gather. Run one after the other they add up; in the
/// same loop the out-of-order core runs them side by side. The lookups trail the vector
/// part by `lag` pixels of the output row, so they read pixels the vector stores wrote a
/// few iterations earlier (already in L1, and not waiting on store forwarding from a
/// 32-byte store into a 4-byte load).
struct MatrixCurveKernel {
    let matrix: ColorMatrixKernel
    let curves: ChannelCurves
    let pairs: PairCurveTables
    static let lag = 32

    init(matrix: ColorMatrixKernel, curves: ChannelCurves) {
        self.matrix = matrix
        self.curves = curves
        pairs = PairCurveTables(curves)
    }

    /// True when the pair can run fused: BGRA with alpha kept (the common case); other
    /// inputs run the two steps one after the other.
    static func fuses(_ matrix: ColorMatrix, format: PixelFormat) -> Bool {
        format == .bgra8 && matrix.keepsAlpha
    }

    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        guard input.format == .bgra8, matrix.keepsAlpha else {
            matrix.apply(input, into: output, rows: rows)
            curves.applyTables(output, into: output, rows: rows)
            return
        }
        let width = input.width
        matrix.coefficients.withUnsafeBufferPointer { k in
            pairs.withTables { low, high in
                forEachRowPair(input, output, rows: rows) { s, d in
                    let done = fusedRow(s, d, width, low, high)
                    // The last pixels (fewer than a vector): matrix in scalar, then their lookups.
                    matrix.applyRowTail(s, d, from: done, to: width, k.baseAddress!)
                    lookUpPairs(UnsafeRawPointer(d), UnsafeMutableRawPointer(d), from: done, to: width, low, high)
                }
            }
        }
    }

    /// The vector part of a row with its lookups; returns the first pixel not done
    /// (every pixel before it has had its lookup too).
    @inline(__always)
    private func fusedRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                          _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        if let avx2 = matrix.avx2 {
            return Self.row(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), width, avx2, low, high)
        }
        #endif
        // Portable: the matrix over the row, then the lookups (not interleaved).
        let done = matrix.vectorRow(s, d, width)
        lookUpPairs(UnsafeRawPointer(d), UnsafeMutableRawPointer(d), from: 0, to: done, low, high)
        return done
    }

    #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
    /// AVX2 matrix on pixels x…x+7, lookups on x−lag…x−lag+7. Not inlined: one small loop
    /// with the splats and shuffles in registers.
    @inline(never)
    private static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ step: AVX2MatrixStep,
                            _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let green = step.greenLanes, red = step.redLanes, interleave = step.interleave
        var x = 0
        while x &+ 8 <= width {
            let v = (s + 4 &* x).loadUnaligned(as: __m256i.self)
            (d + 4 &* x).storeBytes(of: step.eight(v, green: green, red: red, interleave: interleave), as: __m256i.self)
            if x >= lag { lookUpPairsEight(d + 4 &* (x &- lag), low, high) }
            x &+= 8
        }
        // The lookups the loop has not reached yet.
        lookUpPairs(UnsafeRawPointer(d), d, from: max(0, x &- lag), to: x, low, high)
        return x
    }
    #endif
}
