import FramelabCore

/// Dispatch of a colour step to its scalar reference (the fast kernels are `RowKernel`).
enum ColorStepKernels {
    static func applyScalar(_ step: ColorStep, _ input: Mat, into output: Mat) {
        switch step {
        case .matrix(let m): m.applyScalar(input, into: output)
        case .curves(let c): c.applyScalar(input, into: output)
        case .vibrance(let amount): Vibrance(amount: amount).applyScalar(input, into: output)
        }
    }
}
