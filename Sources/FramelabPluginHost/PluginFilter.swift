import CFramelabPlugin
import FramelabCore
import FramelabElements
import FramelabFilters

/// A plugin filter element run in this process, as a `FrameFilter`.
///
/// The plugin writes into an output image this filter owns and reuses across frames, or
/// hands back the input (pass-through) or memory of its own; anything else — a different
/// size or format than negotiated — is a processing error naming the element.
public final class PluginFilter: FrameFilter {
    public let element: PluginElement
    private let instance: PluginInstance
    private var output: Mat?

    public var name: String { element.info.name }

    public init(element: PluginElement, values: ParameterValues) throws {
        self.element = element
        instance = try PluginInstance(element: element, values: values)
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? { element.outputFormat(for: input) }

    public func process(_ input: Mat) throws -> Mat {
        guard let format = outputFormat(for: input.format) else {
            throw FramelabError(.unsupported, "element \(element.label) does not accept \(input.format) images")
        }
        return try process(input, into: reusableOutput(format: format, width: input.width, height: input.height))
    }

    /// Processes into `out` (of the negotiated format and the input's size); returns `out`,
    /// the input (pass-through) or the plugin's own memory.
    func process(_ input: Mat, into out: Mat) throws -> Mat {
        let format = out.format
        return try input.withUnsafeBytes { src in
            try out.withUnsafeMutableBytes { dst in
                var inImage = fl_plugin_image(input, data: src.baseAddress!)
                var outImage = fl_plugin_image(out, data: dst.baseAddress!)
                try instance.process(&inImage, &outImage)
                if outImage.data == dst.baseAddress, outImage.format == format.rawValue,
                   outImage.width == inImage.width, outImage.height == inImage.height, outImage.stride == out.stride {
                    return out
                }
                return try redirected(outImage, input: input, inImage: inImage, expected: format)
            }
        }
    }

    /// The plugin pointed the output elsewhere: at the input, or at its own memory.
    private func redirected(_ image: fl_plugin_image, input: Mat, inImage: fl_plugin_image,
                            expected: PixelFormat) throws -> Mat {
        guard image.format == expected.rawValue, image.width == inImage.width, image.height == inImage.height,
              let data = image.data, image.stride >= Int64(input.width * expected.bytesPerPixel) else {
            throw FramelabError(.processing,
                "element \(element.label) returned a \(image.shapeText) image (stride \(image.stride)), expected \(inImage.width)x\(inImage.height) \(expected)")
        }
        if data == inImage.data && image.stride == inImage.stride { return input }
        // The plugin's own memory, valid until its next call: the same promise a FrameFilter makes.
        return Mat(borrowing: data, format: expected, width: input.width, height: input.height,
                   stride: Int(image.stride), owner: self)
    }

    private func reusableOutput(format: PixelFormat, width: Int, height: Int) -> Mat {
        if let output, output.format == format, output.width == width, output.height == height { return output }
        let fresh = Mat(format: format, width: width, height: height)
        output = fresh
        return fresh
    }
}
