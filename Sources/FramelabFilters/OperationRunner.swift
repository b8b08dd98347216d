import FramelabCore
import FramelabKernels

/// Runs one operation eagerly on the scalar, SIMD or OpenCV path, writing a full output
/// image. The operation's kernel (tables, weights, layers, scratch) is made for the first
/// frame of a shape and kept while frames keep that shape.
final class OperationRunner {
    let name: String
    let operation: any FilterOperation
    let path: FilterPath
    /// The kernel level, fixed when the filter is made (`KernelLevel.current`).
    let level: KernelLevel
    private let kernels: KernelTable
    private(set) var kernel: (key: LayerKey, kernel: any OperationKernel)?

    init(name: String, operation: any FilterOperation, path: FilterPath) {
        precondition(path != .recipe, "recipes run through Recipe")
        self.name = name
        self.operation = operation
        self.path = path
        level = KernelLevel.current
        kernels = level.kernels
    }

    func apply(_ input: Mat, into output: Mat) throws {
        let kernel = kernel(for: input)
        switch path {
        case .scalar: kernel.applyScalar(input, into: output)
        case .simd: kernel.applyVector(input, into: output, rows: 0..<output.height, band: 0)
        case .opencv, .recipe:
            if let why = operation.missingOpenCVReason {
                throw FramelabError(.unsupported, "filter '\(name)' has no OpenCV reference path (\(why))")
            }
            try kernel.applyOpenCV(input, into: output)
        }
    }

    private func kernel(for input: Mat) -> any OperationKernel {
        let key = LayerKey(format: input.format, width: input.width, height: input.height)
        if let kernel, kernel.key == key { return kernel.kernel }
        let made = operation.kernel(for: (input.format, input.width, input.height), kernels: kernels)
        kernel = (key, made)
        return made
    }
}

/// An input shape, as the key of what is made once per shape.
struct LayerKey: Equatable {
    let format: PixelFormat
    let width: Int
    let height: Int
}
