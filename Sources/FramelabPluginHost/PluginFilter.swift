import CFramelabPlugin
import FramelabCore
import FramelabElements
import FramelabFilters

/// A plugin filter element run in this process, as a `FrameFilter`.
///
/// The plugin writes into an output image this filter owns and reuses across frames, or
/// hands back the input (pass-through) or memory of its own; anything else — a different
/// size or format than negotiated — is a processing error naming the element, and so is
/// a write past the end of the output (see `OutputCanary`).
public final class PluginFilter: StampedFrameFilter, TunableElement {
    public let element: PluginElement
    private var instance: PluginInstance
    private var values: ParameterValues
    private var output: (image: Mat, canary: OutputCanary)?
    /// Instances created: 1, plus one per parameter change the element could not take live.
    public private(set) var instancesCreated = 1

    public var name: String { element.info.name }

    public init(element: PluginElement, values: ParameterValues) throws {
        self.element = element
        self.values = values
        instance = try PluginInstance(element: element, values: values)
    }

    /// Changes a parameter between frames: through the element's set_parameter (ABI 2), or
    /// by creating a new instance with the new values when the element has none.
    public func setParameter(_ name: String, to text: String) throws {
        let next = try PluginInstance.changing(instance, values: values, name, to: text)
        (instance, values) = (next.instance, next.values)
        if next.isNew { instancesCreated += 1 }
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? { element.outputFormat(for: input) }

    public func process(_ input: Mat) throws -> Mat {
        guard let format = outputFormat(for: input.format) else {
            throw FramelabError(.unsupported, "element \(element.label) does not accept \(input.format) images")
        }
        let output = reusableOutput(format: format, width: input.width, height: input.height)
        return try process(input, into: output.image, canary: output.canary)
    }

    public func process(_ input: Mat, stamp: FrameStamp) throws -> Mat {
        guard let format = outputFormat(for: input.format) else {
            throw FramelabError(.unsupported, "element \(element.label) does not accept \(input.format) images")
        }
        let output = reusableOutput(format: format, width: input.width, height: input.height)
        return try process(input, into: output.image, canary: output.canary, stamp: stamp)
    }

    /// Processes into `out` (of the negotiated format and the input's size); returns `out`,
    /// the input (pass-through) or the plugin's own memory. `canary`, when given, guards the
    /// bytes after `out`.
    func process(_ input: Mat, into out: Mat, canary: OutputCanary?, stamp: FrameStamp? = nil) throws -> Mat {
        let format = out.format
        return try input.withUnsafeBytes { src in
            try out.withUnsafeMutableBytes { dst in
                var inImage = fl_plugin_image(input, data: src.baseAddress!)
                var outImage = fl_plugin_image(out, data: dst.baseAddress!)
                canary?.arm()
                try instance.process(&inImage, &outImage, stamp: stamp)
                if let canary, !canary.isIntact {
                    throw FramelabError(.processing,
                        "element \(element.label) wrote past the end of its \(out.width)x\(out.height) \(format) output image (stride \(out.stride)); memory after an image may be damaged in a plugin run in process, so run it with --isolate until it is fixed")
                }
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

    /// The output image, reused while the shape stays, with spare rows after it for the canary.
    private func reusableOutput(format: PixelFormat, width: Int, height: Int) -> (image: Mat, canary: OutputCanary) {
        if let output, output.image.format == format, output.image.width == width, output.image.height == height {
            return output
        }
        let stride = max(width * format.bytesPerPixel, 1)
        let spareRows = (OutputCanary.byteCount + stride - 1) / stride
        let backing = Mat(format: format, width: width, height: height + spareRows, stride: stride)
        let image = backing.view(x: 0, y: 0, width: width, height: height)
        let canary = backing.withUnsafeMutableBytes { OutputCanary(after: $0.baseAddress!, stride: stride, height: height) }
        output = (image, canary)
        return (image, canary)
    }
}
