#if canImport(Glibc)
import Glibc
#endif
import CFramelabPlugin

/// The C description of a Swift plugin library, built once and kept for the library's
/// lifetime. A plugin declares one as a global and returns `entry` from its exported
/// `framelab_plugin_entry`:
///
///     let plugin = PluginExport(name: "my-plugin", filters: [MyFilter.self])
///     @_cdecl("framelab_plugin_entry")
///     public func framelabPluginEntry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? { plugin.entry }
public final class PluginExport: @unchecked Sendable {
    /// The `fl_plugin` description; never freed (the library may be unloaded, never reused).
    public let entry: UnsafeRawPointer

    public init(name: String, filters: [any FramelabFilterPlugin.Type] = [],
                detectors: [any FramelabDetectorPlugin.Type] = []) {
        var elements = filters.map { ElementFactory(filter: $0).cElement }
        elements += detectors.map { ElementFactory(detector: $0).cElement }
        let array = UnsafeMutablePointer<fl_plugin_element>.allocate(capacity: max(1, elements.count))
        array.initialize(from: elements, count: elements.count)
        let plugin = UnsafeMutablePointer<fl_plugin>.allocate(capacity: 1)
        // Sizes and strides as C's sizeof gives them (Swift's stride: the size with tail padding).
        plugin.initialize(to: fl_plugin(abi_major: UInt32(FL_PLUGIN_ABI_MAJOR), abi_minor: UInt32(FL_PLUGIN_ABI_MINOR),
                                        struct_size: UInt32(MemoryLayout<fl_plugin>.stride),
                                        element_stride: UInt32(MemoryLayout<fl_plugin_element>.stride),
                                        name: strdup(name), elements: array, element_count: Int32(elements.count)))
        entry = UnsafeRawPointer(plugin)
    }
}

/// One element's metadata in C form plus the Swift code that makes instances; the
/// C description's user_data points here (retained forever).
final class ElementFactory {
    let parameters: [PluginParameter]
    let makeFilter: ((PluginValues) throws -> any FramelabFilterPlugin)?
    let makeDetector: ((PluginValues) throws -> any FramelabDetectorPlugin)?
    let outputFormat: ((PluginPixelFormat) -> PluginPixelFormat?)?
    private(set) var cElement = fl_plugin_element()

    init(filter: any FramelabFilterPlugin.Type) {
        parameters = filter.parameters
        makeFilter = { try filter.init($0) }
        makeDetector = nil
        outputFormat = { filter.outputFormat(for: $0) }
        describe(kind: Int32(FL_PLUGIN_FILTER), name: filter.name, version: filter.version,
                 summary: filter.summary, formats: filter.formats)
    }

    init(detector: any FramelabDetectorPlugin.Type) {
        parameters = detector.parameters
        makeFilter = nil
        makeDetector = { try detector.init($0) }
        outputFormat = nil
        describe(kind: Int32(FL_PLUGIN_DETECTOR), name: detector.name, version: detector.version,
                 summary: detector.summary, formats: detector.formats)
    }

    private func describe(kind: Int32, name: String, version: String, summary: String, formats: [PluginPixelFormat]) {
        let cFormats = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, formats.count))
        cFormats.initialize(from: formats.map(\.rawValue), count: formats.count)
        let cParams = UnsafeMutablePointer<fl_plugin_param>.allocate(capacity: max(1, parameters.count))
        cParams.initialize(from: parameters.map(\.cParameter), count: parameters.count)
        var e = fl_plugin_element()
        e.struct_size = UInt32(MemoryLayout<fl_plugin_element>.stride)
        e.param_stride = UInt32(MemoryLayout<fl_plugin_param>.stride)
        e.kind = kind
        e.name = UnsafePointer(strdup(name))
        e.version = UnsafePointer(strdup(version))
        e.description = UnsafePointer(strdup(summary))
        e.formats = UnsafePointer(cFormats)
        e.format_count = Int32(formats.count)
        e.params = UnsafePointer(cParams)
        e.param_count = Int32(parameters.count)
        e.user_data = Unmanaged.passRetained(self).toOpaque()
        e.create = KitCallbacks.create
        e.destroy = KitCallbacks.destroy
        e.set_parameter = KitCallbacks.setParameter
        if kind == Int32(FL_PLUGIN_FILTER) {
            e.process = KitCallbacks.process
            e.output_format = KitCallbacks.outputFormat
        } else {
            e.detect = KitCallbacks.detect
        }
        cElement = e
    }

    /// One changed value (parameter `index`) as `PluginValues` holding just it.
    func value(of index: Int, _ v: fl_plugin_value) -> PluginValues {
        let p = parameters[index]
        switch p.kind {
        case .choice, .string: return PluginValues(numbers: [:], strings: [p.name: v.string.map { String(cString: $0) } ?? ""])
        default: return PluginValues(numbers: [p.name: v.number], strings: [:])
        }
    }

    /// Reads the host's values (one per parameter, in order) into `PluginValues`.
    func values(_ cValues: UnsafePointer<fl_plugin_value>?) -> PluginValues {
        var numbers: [String: Double] = [:], strings: [String: String] = [:]
        for (i, p) in parameters.enumerated() {
            guard let v = cValues?[i] else { continue }
            switch p.kind {
            case .choice, .string: strings[p.name] = v.string.map { String(cString: $0) } ?? ""
            default: numbers[p.name] = v.number
            }
        }
        return PluginValues(numbers: numbers, strings: strings)
    }
}

extension PluginParameter {
    /// The C form; strings are duplicated and kept for the library's lifetime.
    var cParameter: fl_plugin_param {
        var p = fl_plugin_param()
        p.struct_size = UInt32(MemoryLayout<fl_plugin_param>.stride)
        p.name = UnsafePointer(strdup(name))
        p.description = UnsafePointer(strdup(summary))
        p.minimum = -.infinity
        p.maximum = .infinity
        switch kind {
        case .float(let range, let value):
            p.type = Int32(FL_PARAM_FLOAT); p.minimum = range.lowerBound; p.maximum = range.upperBound
            p.default_number = value
        case .int(let range, let value):
            p.type = Int32(FL_PARAM_INT); p.minimum = Double(range.lowerBound); p.maximum = Double(range.upperBound)
            p.default_number = Double(value)
        case .bool(let value):
            p.type = Int32(FL_PARAM_BOOL); p.default_number = value ? 1 : 0
        case .choice(let choices, let value):
            p.type = Int32(FL_PARAM_ENUM); p.choices = UnsafePointer(strdup(choices.joined(separator: "|")))
            p.default_string = UnsafePointer(strdup(value))
        case .string(let value):
            p.type = Int32(FL_PARAM_STRING); p.default_string = UnsafePointer(strdup(value))
        }
        return p
    }
}
