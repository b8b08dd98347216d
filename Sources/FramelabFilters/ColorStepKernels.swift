import FramelabCore

/// Dispatch of a colour step to its scalar reference or fast kernel.
enum ColorStepKernels {
    static func applyScalar(_ step: ColorStep, _ input: Mat, into output: Mat) {
        switch step {
        case .matrix(let m): m.applyScalar(input, into: output)
        case .curves(let c): c.applyScalar(input, into: output)
        case .vibrance(let amount): Vibrance(amount: amount).applyScalar(input, into: output)
        }
    }

    static func applyFast(_ step: ColorStep, _ input: Mat, into output: Mat, rows: Range<Int>) {
        switch step {
        case .matrix(let m): ColorMatrixKernel(m).apply(input, into: output, rows: rows)
        case .curves(let c): c.applyTables(input, into: output, rows: rows)
        case .vibrance(let amount): Vibrance(amount: amount).applySIMD(input, into: output, rows: rows)
        }
    }
}
