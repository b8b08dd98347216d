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

    init(element: PluginElement, values: ParameterValues) throws {
        self.element = element
        message.initialize(repeating: 0, count: PluginABI.messageCapacity)
        loaded = try element.loaded()
        let e = loaded.element.pointee
        processFunction = e.process
        // Strings live until create returns; the ABI says values are valid during the call only.
        let specs = element.info.parameters
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { free($0) } }
        var cValues: [fl_plugin_value] = specs.map { spec in
            let value = values.values[spec.name] ?? spec.defaultValue
            switch value {
            case .string(let s):
                let c = strdup(s)!
                owned.append(c)
                return fl_plugin_value(number: 0, string: c)
            default:
                return fl_plugin_value(number: value.doubleValue ?? 0, string: nil)
            }
        }
        var instance: UnsafeMutableRawPointer?
        let text = message
        let status = cValues.withUnsafeMutableBufferPointer { buffer in
            PluginCrashGuard.call(element.crashLabel.pointer, doing: "creating an instance") {
                e.create(e.user_data, buffer.baseAddress, &instance, text, PluginABI.messageCapacity)
            }
        }
        guard status == PluginABI.ok else {
            throw FramelabError(.badInput, "element \(element.label): create failed (\(PluginABI.statusName(status))): "
                                + PluginABI.message(message, fallback: "no message"))
        }
        handle = instance
    }

    deinit {
        let destroy = loaded.element.pointee.destroy
        PluginCrashGuard.call(element.crashLabel.pointer, doing: "destroying an instance") { destroy!(handle) }
        message.deallocate()
    }

    /// Calls the filter's process function; `output` may be redirected by the plugin.
    @inline(__always)
    func process(_ input: UnsafePointer<fl_plugin_image>, _ output: UnsafeMutablePointer<fl_plugin_image>) throws {
        message[0] = 0
        let status = PluginCrashGuard.call(element.crashLabel.pointer, doing: "processing a frame") {
            processFunction!(handle, input, output, message, PluginABI.messageCapacity)
        }
        if status != PluginABI.ok { throw failure(status) }
    }

    /// Calls the detector's detect function; returns how many detections it wrote.
    func detect(_ input: UnsafePointer<fl_plugin_image>, into buffer: UnsafeMutablePointer<fl_plugin_detection>,
                capacity: Int32) throws -> Int {
        message[0] = 0
        var count: Int32 = 0
        let detect = loaded.element.pointee.detect!
        let status = PluginCrashGuard.call(element.crashLabel.pointer, doing: "detecting") {
            detect(handle, input, buffer, capacity, &count, message, PluginABI.messageCapacity)
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
