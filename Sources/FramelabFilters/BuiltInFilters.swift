import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// The built-in filters (scalar reference path).
public enum BuiltInFilters {
    public static let all: [FilterDescriptor] = [gray, sepia, hue]

    static let colorFormats: [PixelFormat] = [.bgra8, .bgr8]

    /// Luma with BT.601 weights (as OpenCV's cvtColor), producing a gray8 image.
    public static let gray = FilterDescriptor(
        name: "gray", summary: "luma (BT.601 weights, as OpenCV's cvtColor) as a one-channel image",
        parameters: [], formats: [.bgra8, .bgr8, .gray8]) { _ in GrayFilter() }

    /// Sepia tone, blended with the original by `intensity` (like CISepiaTone).
    public static let sepia = FilterDescriptor(
        name: "sepia", summary: "sepia tone, blended with the original by intensity",
        parameters: [ParameterSpec(name: "intensity", type: .float, minimum: 0, maximum: 1,
                                   defaultValue: .float(1), summary: "0 keeps the image, 1 is full sepia")],
        formats: colorFormats) { values in
            ColorMatrixFilter(name: "sepia", matrix: ColorMatrices.sepia.blended(values.double("intensity")))
        }

    /// Hue rotation about the gray axis (like CIHueAdjust).
    public static let hue = FilterDescriptor(
        name: "hue", summary: "rotates hue about the gray axis, keeping luma",
        parameters: [ParameterSpec(name: "angle", type: .float, minimum: -2 * Double.pi, maximum: 2 * Double.pi,
                                   defaultValue: .float(0), summary: "rotation in radians")],
        formats: colorFormats) { values in
            ColorMatrixFilter(name: "hue", matrix: ColorMatrices.hueRotation(values.double("angle")))
        }
}

/// Named colour matrices used by the built-ins.
public enum ColorMatrices {
    /// The classic sepia-tone matrix (rows: output R, G, B).
    public static let sepia = ColorMatrix([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
    ])

    /// Rotation of hue by `angle` radians about the gray axis, keeping luma
    /// (the hue-rotate matrix of the W3C filter effects specification).
    public static func hueRotation(_ angle: Double) -> ColorMatrix {
        let c = cos(angle), s = sin(angle)
        return ColorMatrix([
            [0.213 + 0.787 * c - 0.213 * s, 0.715 - 0.715 * c - 0.715 * s, 0.072 - 0.072 * c + 0.928 * s],
            [0.213 - 0.213 * c + 0.143 * s, 0.715 + 0.285 * c + 0.140 * s, 0.072 - 0.072 * c - 0.283 * s],
            [0.213 - 0.213 * c - 0.787 * s, 0.715 - 0.715 * c + 0.715 * s, 0.072 + 0.928 * c + 0.072 * s],
        ])
    }
}

/// A filter that applies one colour matrix (sepia, hue, …) to BGR or BGRA images.
final class ColorMatrixFilter: FrameFilter {
    let name: String
    let matrix: ColorMatrix
    private var output = OutputBuffer()

    init(name: String, matrix: ColorMatrix) {
        self.name = name
        self.matrix = matrix
    }

    func outputFormat(for input: PixelFormat) -> PixelFormat? {
        input == .bgra8 || input == .bgr8 ? input : nil
    }

    func process(_ input: Mat) throws -> Mat {
        guard outputFormat(for: input.format) != nil else {
            throw FramelabError(.unsupported, "filter '\(name)' does not accept \(input.format)")
        }
        let out = output.image(format: input.format, width: input.width, height: input.height)
        matrix.applyScalar(input, into: out)
        return out
    }
}

/// Luma: Y = 0.299 R + 0.587 G + 0.114 B, rounded, into a gray8 image.
final class GrayFilter: FrameFilter {
    let name = "gray"
    private var output = OutputBuffer()

    func outputFormat(for input: PixelFormat) -> PixelFormat? {
        [.bgra8, .bgr8, .gray8].contains(input) ? .gray8 : nil
    }

    func process(_ input: Mat) throws -> Mat {
        if input.format == .gray8 { return input }
        guard outputFormat(for: input.format) != nil else {
            throw FramelabError(.unsupported, "filter 'gray' does not accept \(input.format)")
        }
        let out = output.image(format: .gray8, width: input.width, height: input.height)
        let step = input.format.bytesPerPixel
        out.withUnsafeMutableBytes { dst in
            input.withUnsafeBytes { src in
                let s = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let d = dst.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<input.height {
                    let sr = s + y * input.stride, dr = d + y * out.stride
                    for x in 0..<input.width {
                        let p = x * step
                        let luma = 0.114 * Double(sr[p]) + 0.587 * Double(sr[p + 1]) + 0.299 * Double(sr[p + 2])
                        dr[x] = clampToByte(luma)
                    }
                }
            }
        }
        return out
    }
}
