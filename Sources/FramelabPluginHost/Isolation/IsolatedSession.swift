import CFramelabPlugin
import FramelabCore
import FramelabElements

/// The host's state for one isolated element: the shared memory, the current worker,
/// restarts, and where images sit in the shared memory.
///
/// Layout: [input slot | output slot | detections]. An input already inside the input
/// slot (see `sharedInputImage`) is used where it is; any other input is copied in once.
final class IsolatedSession {
    static let pageSize = 4096
    let element: PluginElement
    /// The values as `name=value` texts: what a (re)started worker is given.
    private(set) var arguments: [String]
    let options: IsolationOptions
    private let shared: SharedMemoryFile
    private(set) var mapping: SharedMapping?
    private var worker: PluginWorkerClient?
    private var endedBecause: String?
    private(set) var restarts = 0
    /// Frames whose input had to be copied into shared memory.
    private(set) var inputCopies = 0

    init(element: PluginElement, values: ParameterValues, options: IsolationOptions) throws {
        self.element = element
        // Checked values as text; the worker parses them back to the same values.
        self.arguments = element.info.parameters.compactMap { p in values.values[p.name].map { "\(p.name)=\($0)" } }
        self.options = options
        shared = try SharedMemoryFile()
        worker = try PluginWorkerClient(element: element, arguments: arguments, shared: shared, arena: options.arena)
    }

    struct Layout {
        var input: SlotImage
        var output: SlotImage
        var detectionOffset: Int
        var size: Int
    }

    static func roundUp(_ n: Int, _ to: Int) -> Int { (n + to - 1) / to * to }

    /// Where an input of this shape and an output of `output` format go.
    func layout(format: PixelFormat, width: Int, height: Int, inputStride: Int?, output: PixelFormat?) -> Layout {
        let inStride = inputStride ?? Self.roundUp(width * format.bytesPerPixel, 64)
        let inBytes = Self.roundUp(inStride * height, Self.pageSize)
        var outSlot = SlotImage()
        var outBytes = 0
        if let output {
            let outStride = Self.roundUp(width * output.bytesPerPixel, 64)
            outBytes = Self.roundUp(outStride * height + OutputCanary.byteCount, Self.pageSize)
            outSlot = SlotImage(offset: Int64(inBytes), format: output.rawValue, width: Int32(width),
                                height: Int32(height), stride: Int64(outStride))
        }
        let detections = Self.roundUp(PluginABI.detectionCapacity * MemoryLayout<fl_plugin_detection>.stride, Self.pageSize)
        return Layout(input: SlotImage(offset: 0, format: format.rawValue, width: Int32(width), height: Int32(height),
                                       stride: Int64(inStride)),
                      output: outSlot, detectionOffset: inBytes + outBytes, size: inBytes + outBytes + detections)
    }

    /// The mapping, grown to at least `size` bytes.
    func mapped(size: Int) throws -> SharedMapping {
        if let mapping, mapping.size >= size { return mapping }
        try shared.grow(to: size)
        let fresh = try SharedMapping(fd: shared.fd, size: shared.size)
        mapping = fresh
        return fresh
    }

    /// The arena slot of an image in the run's frame arena (nil: not in it, or no arena).
    func arenaSlot(_ image: Mat) -> SlotImage? {
        guard let arena = options.arena, let offset = arena.offset(of: image) else { return nil }
        return SlotImage(region: 1, offset: Int64(offset), format: image.format.rawValue, width: Int32(image.width),
                         height: Int32(image.height), stride: Int64(image.stride))
    }

    /// Puts `input` into the input slot (no copy when it already is there); returns its slot.
    func place(_ input: Mat, layout: Layout, in map: SharedMapping) -> SlotImage {
        let inPlace = input.withUnsafeBytes { bytes in
            map.contains(bytes.baseAddress!, count: bytes.count) && bytes.baseAddress! == UnsafeRawPointer(map.base)
        }
        if inPlace { return layout.input }
        inputCopies += 1
        let slot = map.image(offset: 0, format: input.format, width: input.width, height: input.height,
                             stride: Int(layout.input.stride))
        slot.copyPixels(from: input)
        return layout.input
    }

    /// Changes a parameter in the worker's instance between frames (checked here first, so
    /// a bad value is refused without a round trip); a worker started later gets it too.
    /// Returns how many instances the worker has created (1: every change was taken live).
    func setParameter(_ name: String, to text: String) throws -> Int {
        _ = try element.liveChange(name, text)
        let response = try call(WorkerRequest(operation: WorkerRequest.Operation.setParameter.rawValue), text: "\(name)=\(text)")
        arguments = arguments.filter { !$0.hasPrefix(name + "=") } + ["\(name)=\(text)"]
        return Int(response.instancesCreated)
    }

    /// Sends a request to a live worker, starting one if allowed.
    func call(_ request: WorkerRequest, text: String = "") throws -> WorkerResponse {
        let live = try liveWorker()
        do {
            return try live.call(request, text: text, timeout: options.timeoutMilliseconds)
        } catch let error as FramelabError {
            if !live.isRunning { endedBecause = error.message }
            throw error
        }
    }

    private func liveWorker() throws -> PluginWorkerClient {
        if let worker, worker.isRunning { return worker }
        guard options.restart else {
            throw FramelabError(.processing,
                "element \(element.label): stage ended after the worker died (\(endedBecause ?? "unknown")); --restart-plugins starts a new one")
        }
        worker = nil
        let fresh = try PluginWorkerClient(element: element, arguments: arguments, shared: shared, arena: options.arena)
        restarts += 1
        worker = fresh
        return fresh
    }
}
