#if canImport(Glibc)
import Glibc
#endif
import CFramelabPlugin
import FramelabCore
import FramelabElements

/// One created instance of a plugin element: create on init, destroy on deinit.
///
/// Calls into the plugin go through here; each returns the plugin's status and message
/// as a thrown `FramelabError` naming the element and its file, and each is marked for
/// `PluginCrashGuard`, so a crash inside one ends the process with one line naming it.
/// Creating the first instance of an element loads its file into this process.
final class PluginInstance {
    let element: PluginElement
    private let loaded: PluginElement.Loaded
    private let handle: UnsafeMutableRawPointer?
    private let message = UnsafeMutablePointer<CChar>.allocate(capacity: PluginABI.messageCapacity)
    private let processFunction: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fl_plugin_image>?,
        UnsafeMutablePointer<fl_plugin_image>?, UnsafeMutablePointer<CChar>?, Int) -> Int32)?
    /// ABI 2's process_frame, preferred over `processFunction` when the element has it.
    private let processFrameFunction: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fl_plugin_frame>?,
        UnsafePointer<fl_plugin_image>?, UnsafeMutablePointer<fl_plugin_image>?, UnsafeMutablePointer<CChar>?, Int) -> Int32)?
    /// Frames this instance was handed, the index told to the plugin when the caller knows none.
    private var calls = 0

    init(element: PluginElement, values: ParameterValues) throws {
        self.element = element
        message.initialize(repeating: 0, count: PluginABI.messageCapacity)
        loaded = try element.loaded()
        let e = loaded.element
        processFunction = e.process
        processFrameFunction = e.process_frame
        let specs = element.info.parameters
        var instance: UnsafeMutableRawPointer?
        let text = message
        let status = Self.withCValues(specs.map { values.values[$0.name] ?? $0.defaultValue }) { buffer in
            PluginCrashGuard.call(element.crashLabel.pointer, doing: "creating an instance") {
                e.create(e.user_data, buffer, &instance, text, PluginABI.messageCapacity)
            }
        }
        guard status == PluginABI.ok else {
            throw FramelabError(.badInput, "element \(element.label): create failed (\(PluginABI.statusName(status))): "
                                + PluginABI.message(message, fallback: "no message"))
        }
        handle = instance
    }

    /// `values` as fl_plugin_values for one call. Strings live until `body` returns; the ABI
    /// says values are valid during the call only.
    private static func withCValues<R>(_ values: [ParameterValue], _ body: (UnsafePointer<fl_plugin_value>?) -> R) -> R {
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { free($0) } }
        let cValues: [fl_plugin_value] = values.map { value in
            switch value {
            case .string(let s):
                let c = strdup(s)!
                owned.append(c)
                return fl_plugin_value(number: 0, string: c)
            default:
                return fl_plugin_value(number: value.doubleValue ?? 0, string: nil)
            }
        }
        return cValues.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// Changes parameter `index` (description order) to `value`, already checked, through the
    /// element's set_parameter. False when the element cannot (no set_parameter, or it answered
    /// FL_PLUGIN_UNSUPPORTED): the caller re-creates the instance instead.
    func setParameter(_ index: Int, to value: ParameterValue) throws -> Bool {
        guard let set = loaded.element.set_parameter else { return false }
        message[0] = 0
        let label = element.crashLabel.pointer, handle = handle, text = message
        let status = Self.withCValues([value]) { cValue in
            PluginCrashGuard.call(label, doing: "changing a parameter") {
                set(handle, Int32(index), cValue, text, PluginABI.messageCapacity)
            }
        }
        if status == PluginABI.unsupported { return false }
        guard status == PluginABI.ok else {
            throw FramelabError(.badInput, "element \(element.label): set_parameter failed (\(PluginABI.statusName(status))): "
                                + PluginABI.message(message, fallback: "no message"))
        }
        return true
    }

    /// A live change `name=text` to an element running as `instance` with `values`: through
    /// set_parameter, or by a new instance with the new values when the element cannot take
    /// it. Returns the instance and values to run with from now on, and whether it is new.
    static func changing(_ instance: PluginInstance, values: ParameterValues, _ name: String, to text: String) throws
        -> (instance: PluginInstance, values: ParameterValues, isNew: Bool) {
        let change = try instance.element.liveChange(name, text)
        let changed = values.setting(name, to: change.value)
        if try instance.setParameter(change.index, to: change.value) { return (instance, changed, false) }
        return (try PluginInstance(element: instance.element, values: changed), changed, true)
    }

    /// The fl_plugin_frame told to the plugin: the caller's stamp, or this instance's count
    /// of frames when the caller has none (a trial, a benchmark).
    private func cFrame(_ stamp: FrameStamp?) -> fl_plugin_frame {
        defer { calls += 1 }
        let s = stamp ?? FrameStamp(index: calls, pts: 0, arrival: MonotonicClock.now())
        return fl_plugin_frame(struct_size: UInt32(MemoryLayout<fl_plugin_frame>.size), reserved: 0,
                               index: Int64(s.index), pts_ns: s.pts, arrival_ns: s.arrival)
    }

    deinit {
        let destroy = loaded.element.destroy
        PluginCrashGuard.call(element.crashLabel.pointer, doing: "destroying an instance") { destroy!(handle) }
        message.deallocate()
    }

    /// Calls the filter's process function; `output` may be redirected by the plugin.
    @inline(__always)
    func process(_ input: UnsafePointer<fl_plugin_image>, _ output: UnsafeMutablePointer<fl_plugin_image>,
                 stamp: FrameStamp?) throws {
        message[0] = 0
        let status: Int32
        if let processFrame = processFrameFunction {
            var frame = cFrame(stamp)
            status = PluginCrashGuard.call(element.crashLabel.pointer, doing: "processing a frame") {
                processFrame(handle, &frame, input, output, message, PluginABI.messageCapacity)
            }
        } else {
            status = PluginCrashGuard.call(element.crashLabel.pointer, doing: "processing a frame") {
                processFunction!(handle, input, output, message, PluginABI.messageCapacity)
            }
        }
        if status != PluginABI.ok { throw failure(status) }
    }

    /// Calls the detector's detect function; returns how many detections it wrote.
    func detect(_ input: UnsafePointer<fl_plugin_image>, into buffer: UnsafeMutablePointer<fl_plugin_detection>,
                capacity: Int32, stamp: FrameStamp?) throws -> Int {
        message[0] = 0
        var count: Int32 = 0
        let status: Int32
        if let detectFrame = loaded.element.detect_frame {
            var frame = cFrame(stamp)
            status = PluginCrashGuard.call(element.crashLabel.pointer, doing: "detecting") {
                detectFrame(handle, &frame, input, buffer, capacity, &count, message, PluginABI.messageCapacity)
            }
        } else {
            let detect = loaded.element.detect!
            status = PluginCrashGuard.call(element.crashLabel.pointer, doing: "detecting") {
                detect(handle, input, buffer, capacity, &count, message, PluginABI.messageCapacity)
            }
        }
        if status != PluginABI.ok { throw failure(status) }
        guard count >= 0, count <= capacity else {
            throw FramelabError(.processing, "element \(element.label) reported \(count) detections (room for \(capacity))")
        }
        return Int(count)
    }

    private func failure(_ status: Int32) -> FramelabError {
        let text = PluginABI.message(message, fallback: "no message")
        let kind: FramelabError.Kind = status == PluginABI.unsupported ? .unsupported : .processing
        return FramelabError(kind, "element \(element.label): \(PluginABI.statusName(status)): \(text)")
    }
}

extension fl_plugin_image {
    /// A header over `mat`'s pixels, valid only while the caller holds the pointer.
    init(_ mat: Mat, data: UnsafeRawPointer) {
        self.init(format: mat.format.rawValue, width: Int32(mat.width), height: Int32(mat.height),
                  stride: Int64(mat.stride), data: UnsafeMutableRawPointer(mutating: data))
    }

    var shapeText: String {
        "\(width)x\(height) \(PixelFormat(rawValue: format)?.name ?? "format \(format)")"
    }
}
