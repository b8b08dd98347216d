import FramelabCore
import FramelabCV
import FramelabKernels

/// Runs one `PixelOperation` eagerly on the scalar, SIMD or OpenCV path, writing a full
/// output image. Layers that compositing needs are generated once per frame size and kept.
final class OperationRunner {
    let name: String
    let operation: PixelOperation
    let path: FilterPath
    private var layers: (key: LayerKey, images: [Mat])?
    /// Fixed-point forms built on first use, so steady state allocates nothing per frame.
    private var colorKernel: RowKernel?
    private var blurKernel: GaussianBlur?
    /// The blur's working memory, kept across frames (an eager filter runs on one thread).
    let blurScratch = BlurScratch()
    /// The kernel level, fixed when the filter is made (`KernelLevel.current`).
    let level: KernelLevel
    private let kernels: KernelTable

    init(name: String, operation: PixelOperation, path: FilterPath) {
        precondition(path != .recipe, "recipes run through Recipe")
        self.name = name
        self.operation = operation
        self.path = path
        level = KernelLevel.current
        kernels = level.kernels
    }

    func apply(_ input: Mat, into output: Mat) throws {
        let all = 0..<output.height
        switch (operation, path) {
        case (.color(let step), .scalar): ColorStepKernels.applyScalar(step, input, into: output)
        case (.color(let step), .simd):
            let kernel = colorKernel ?? RowKernel(step, kernels: kernels)
            colorKernel = kernel
            kernel.apply(input, output, all)
        case (.color(let step), _): try openCVColor(step, input, output)

        case (.luma, _) where input.format == .gray8: output.copyPixels(from: input)
        case (.luma, .scalar): Luma.applyScalar(input, into: output)
        case (.luma, .simd): Luma.applySIMD(input, into: output, rows: all, kernels: kernels)
        case (.luma, _): try input.convert(into: output)

        case (.warp, _), (.sizedWarp, _):
            let warp = operation.warp(width: input.width, height: input.height)!
            switch path {
            case .scalar: WarpKernel.applyScalar(warp, input, into: output)
            case .simd: WarpKernel.applyFast(warp, input, into: output, rows: all)
            default: try OpenCVFilters.warpAffine(input, into: output, matrix: warp.transform.openCVMatrix)
            }

        case (.blur(let sigma), _):
            let blur = blurKernel ?? GaussianBlur(sigma: sigma)
            blurKernel = blur
            switch path {
            case .scalar: blur.applyScalar(input, into: output)
            case .simd: blur.applySIMD(input, into: output, rows: all, scratch: blurScratch, kernels: kernels)
            default: try OpenCVFilters.gaussianBlur(input, into: output, radius: blur.radius, sigma: sigma)
            }

        case (.generate(let generator), _):
            switch (path, generator) {
            case (.scalar, _): generator.renderScalar(into: output)
            case (.simd, _): generator.renderFast(into: output, rows: all, kernels: kernels)
            case (_, .constantColor(let color)):
                try output.openCVFill(x: 0, y: 0, width: output.width, height: output.height,
                                      value: Array(color.bgra.prefix(output.format.channels)))
            default: throw noOpenCV(operation.missingOpenCVReason ?? "")
            }

        case (.composite(let stage), _):
            let made = try layerImages(stage, input)
            switch (stage, path) {
            case (.sourceOver, .scalar): Compositing.sourceOverScalar(top: made[0], bottom: input, into: output)
            case (.sourceOver, .simd): Compositing.sourceOverFast(top: made[0], bottom: input, into: output, rows: all, level: level)
            case (.sourceOver, _): try OpenCVFilters.sourceOver(top: made[0], bottom: input, into: output)
            case (.blendWithMask, .scalar):
                Compositing.blendWithMaskScalar(foreground: input, background: made[0], mask: made[1], into: output)
            case (.blendWithMask, .simd):
                Compositing.blendWithMaskFast(foreground: input, background: made[0], mask: made[1], into: output, rows: all,
                                              level: level)
            case (.blendWithMask, _):
                try OpenCVFilters.blendWithMask(foreground: input, background: made[0], mask: made[1], into: output)
            }
        }
    }

    private func noOpenCV(_ why: String) -> FramelabError {
        FramelabError(.unsupported, "filter '\(name)' has no OpenCV reference path (\(why))")
    }

    private func openCVColor(_ step: ColorStep, _ input: Mat, _ output: Mat) throws {
        switch step {
        case .matrix(let m): try OpenCVFilters.transform(input, into: output, matrix: m.openCVMatrix(channels: input.format.channels))
        case .curves(let curves):
            let identity = (0..<256).map { UInt8($0) }
            try OpenCVFilters.lookUp(input, into: output, tables: Array((curves.tables + [identity]).prefix(input.format.channels)))
        case .vibrance: throw noOpenCV(operation.missingOpenCVReason ?? "")
        }
    }

    /// The generated layers a composite needs at this frame's size, made once per size with
    /// the fast generators (the layers are inputs, not the operation being measured).
    private func layerImages(_ stage: CompositeStage, _ input: Mat) throws -> [Mat] {
        let key = LayerKey(format: input.format, width: input.width, height: input.height)
        if let layers, layers.key == key { return layers.images }
        let images = CompositeLayers.make(stage, like: input)
        layers = (key, images)
        return images
    }
}

extension PixelOperation {
    /// Why OpenCV has no reference for this operation (nil when it has one).
    public var missingOpenCVReason: String? {
        switch self {
        case .color(.vibrance): return "OpenCV has no vibrance operation"
        case .generate(.radialGradient): return "OpenCV has no radial gradient generator"
        default: return nil
        }
    }
}

struct LayerKey: Equatable {
    let format: PixelFormat
    let width: Int
    let height: Int
}

enum CompositeLayers {
    /// sourceOver: [overlay as premultiplied bgra8]; blendWithMask: [background, gray8 mask].
    static func make(_ stage: CompositeStage, like input: Mat) -> [Mat] {
        switch stage {
        case .sourceOver(let overlay):
            let top = Mat(format: .bgra8, width: input.width, height: input.height)
            overlay.premultiplied.renderFast(into: top, rows: 0..<top.height)
            return [top]
        case let .blendWithMask(background, mask):
            let bg = Mat(format: input.format, width: input.width, height: input.height)
            background.renderFast(into: bg, rows: 0..<bg.height)
            let m = Mat(format: .gray8, width: input.width, height: input.height)
            mask.renderFast(into: m, rows: 0..<m.height)
            return [bg, m]
        }
    }
}

extension Generator {
    /// The same generator with colours premultiplied by their alpha.
    var premultiplied: Generator {
        func pm(_ c: RGBAColor) -> RGBAColor { RGBAColor(r: c.r * c.a, g: c.g * c.a, b: c.b * c.a, a: c.a) }
        switch self {
        case .constantColor(let c): return .constantColor(pm(c))
        case let .radialGradient(x, y, r0, r1, c0, c1): return .radialGradient(centerX: x, centerY: y, radius0: r0, radius1: r1, color0: pm(c0), color1: pm(c1))
        }
    }
}

extension ColorMatrix {
    /// Rows and columns reordered to memory order (B, G, R[, A]) with the bias as last
    /// column, as cv::transform takes it.
    func openCVMatrix(channels: Int) -> [Double] {
        let order = [2, 1, 0, 3]  // memory channel → matrix index
        var out: [Double] = []
        for row in 0..<channels {
            let i = order[row]
            for col in 0..<channels { out.append(m[i][order[col]]) }
            // Three channels: alpha is 255 in the definition, so its column folds into the bias.
            out.append(bias[i] + (channels == 3 ? m[i][3] * 255 : 0))
        }
        return out
    }
}

extension Affine2D {
    /// The 2x3 matrix for cv::warpAffine, whose pixel centres sit at integers, not +0.5.
    var openCVMatrix: [Double] {
        [a, b, tx + 0.5 * a + 0.5 * b - 0.5, c, d, ty + 0.5 * c + 0.5 * d - 0.5]
    }
}
