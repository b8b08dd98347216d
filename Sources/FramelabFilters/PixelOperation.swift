import FramelabCore

/// What one built-in filter does, described as data so every path can implement it and a
/// `Recipe` can fuse neighbours.
public enum PixelOperation: Sendable {
    /// Per-pixel colour change, same format and size.
    case color(ColorStep)
    /// Luma into gray8.
    case luma
    /// One resampling into a new size.
    case warp(Warp)
    /// Separable Gaussian blur.
    case blur(sigma: Double)
    /// An image made from parameters, the input's size (bgra8 stays bgra8, bgr8 stays bgr8).
    case generate(Generator)
    /// The input composited with generated layers.
    case composite(CompositeStage)

    /// A warp that depends on the input size (crop, affine framing, straighten).
    case sizedWarp(@Sendable (Int, Int) -> Warp)
}

/// Per-pixel colour steps; consecutive matrices compose and consecutive curves fold.
public enum ColorStep: Sendable {
    case matrix(ColorMatrix)
    case curves(ChannelCurves)
    case vibrance(Double)
}

/// Compositing a frame with layers made by generators.
public enum CompositeStage: Sendable {
    /// A generated overlay (premultiplied BGRA) over the frame.
    case sourceOver(overlay: Generator)
    /// The frame where the mask is white, the background where it is black.
    case blendWithMask(background: Generator, mask: Generator)
}

extension PixelOperation {
    /// The output format and size for an input, or nil when the input format is not accepted.
    public func outputShape(format: PixelFormat, width: Int, height: Int) -> (format: PixelFormat, width: Int, height: Int)? {
        switch self {
        case .luma:
            return [.bgra8, .bgr8, .gray8].contains(format) ? (.gray8, width, height) : nil
        case .warp(let warp):
            return format == .grayF32 ? nil : (format, warp.width, warp.height)
        case .sizedWarp(let make):
            guard format != .grayF32 else { return nil }
            let warp = make(width, height)
            return (format, warp.width, warp.height)
        case .blur:
            return format == .grayF32 ? nil : (format, width, height)
        case .color, .generate, .composite:
            return format == .bgra8 || format == .bgr8 ? (format, width, height) : nil
        }
    }

    /// Input formats accepted (for listings and error messages).
    public var acceptedFormats: [PixelFormat] {
        PixelFormat.allCases.filter { outputShape(format: $0, width: 1, height: 1) != nil }
    }

    /// The concrete warp for an input size (nil for non-geometric operations).
    func warp(width: Int, height: Int) -> Warp? {
        switch self {
        case .warp(let w): return w
        case .sizedWarp(let make): return make(width, height)
        default: return nil
        }
    }
}
