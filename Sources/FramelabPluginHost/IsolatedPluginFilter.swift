import CFramelabPlugin
import FramelabCore
import FramelabElements
import FramelabFilters

/// A plugin filter run in a child process (`--isolate`): a crash, hang or timeout fails
/// the frame with a message instead of ending the host. Pixels stay in shared memory:
/// the worker writes its output straight into memory the host maps.
public final class IsolatedPluginFilter: StampedFrameFilter, TunableElement {
    public let element: PluginElement
    private let session: IsolatedSession
    private var output: (mapping: SharedMapping, image: Mat)?
    private var arenaOut: Mat?

    public var name: String { element.info.name }
    /// How many times a dead worker was replaced.
    public var restarts: Int { session.restarts }
    /// Frames whose input was copied into shared memory (not already there).
    public var inputCopies: Int { session.inputCopies }
    /// Instances the current worker has created, as of the last parameter change (1: every
    /// change was taken live by set_parameter).
    public private(set) var instancesCreated = 1

    public init(element: PluginElement, values: ParameterValues, options: IsolationOptions = IsolationOptions()) throws {
        guard element.info.kind == .filter else {
            throw FramelabError(.badInput, "element \(element.label) is a \(element.info.kind), not a filter")
        }
        self.element = element
        session = try IsolatedSession(element: element, values: values, options: options)
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? { element.outputFormat(for: input) }

    /// An image in the shared input slot: a source that renders into it hands frames to
    /// the worker with no copy at all.
    public func sharedInputImage(format: PixelFormat, width: Int, height: Int) throws -> Mat {
        let layout = session.layout(format: format, width: width, height: height, inputStride: nil,
                                    output: outputFormat(for: format))
        let map = try session.mapped(size: layout.size)
        return map.image(offset: 0, format: format, width: width, height: height, stride: Int(layout.input.stride))
    }

    /// Changes a parameter in the worker between frames (see `PluginFilter.setParameter`).
    public func setParameter(_ name: String, to text: String) throws {
        instancesCreated = try session.setParameter(name, to: text)
    }

    public func process(_ input: Mat) throws -> Mat { try process(input, stamp: nil) }

    public func process(_ input: Mat, stamp: FrameStamp) throws -> Mat { try process(input, stamp: Optional(stamp)) }

    private func process(_ input: Mat, stamp: FrameStamp?) throws -> Mat {
        guard let format = outputFormat(for: input.format) else {
            throw FramelabError(.unsupported, "element \(element.label) does not accept \(input.format) images")
        }
        if let slot = session.arenaSlot(input), let out = arenaOutput(format: format, like: input),
           let outSlot = session.arenaSlot(out) {
            // The run's frame arena: input and output cross as offsets, no pixel is copied.
            var request = WorkerRequest(operation: WorkerRequest.Operation.process.rawValue, mappedSize: 0,
                                        input: slot, output: outSlot, outputSpare: Int64(OutputCanary.byteCount))
            request.stamp = stamp
            let response = try session.call(request)
            return response.passThrough != 0 ? input : out
        }
        let stride = Self.roundUp64(input.rowBytes)
        let layout = session.layout(format: input.format, width: input.width, height: input.height,
                                    inputStride: input.stride >= stride ? input.stride : stride, output: format)
        let map = try session.mapped(size: layout.size)
        var request = WorkerRequest(operation: WorkerRequest.Operation.process.rawValue, mappedSize: Int64(map.size),
                                    input: session.place(input, layout: layout, in: map), output: layout.output,
                                    outputSpare: Int64(OutputCanary.byteCount))
        request.stamp = stamp
        let response = try session.call(request)
        if response.passThrough != 0 { return input }
        return outputImage(map, layout.output, format)
    }

    /// This stage's output image in the run's arena, reused while the shape stays.
    private func arenaOutput(format: PixelFormat, like input: Mat) -> Mat? {
        if let arenaOut, arenaOut.format == format, arenaOut.width == input.width, arenaOut.height == input.height {
            return arenaOut
        }
        arenaOut = session.options.arena?.makeImage(format: format, width: input.width, height: input.height,
                                                    spare: OutputCanary.byteCount)
        return arenaOut
    }

    private func outputImage(_ map: SharedMapping, _ slot: SlotImage, _ format: PixelFormat) -> Mat {
        if let output, output.mapping === map, output.image.format == format,
           output.image.width == Int(slot.width), output.image.height == Int(slot.height) {
            return output.image
        }
        let image = map.image(offset: Int(slot.offset), format: format, width: Int(slot.width),
                              height: Int(slot.height), stride: Int(slot.stride))
        output = (map, image)
        return image
    }

    private static func roundUp64(_ n: Int) -> Int { IsolatedSession.roundUp(n, 64) }
}
