import CFramelabPlugin
import FramelabCore

/// One element's description copied into the host's own (ABI 2) layout, with its
/// parameters, whatever layout the plugin wrote it in.
struct PluginElementDescription {
    /// The element; its `params` pointer is cleared (the host reads `params` below).
    var element: fl_plugin_element
    /// The parameters, or nil when the plugin's array was NULL.
    var params: [fl_plugin_param]?
}

/// What `framelab_plugin_entry` returned, copied into the host's layout.
struct PluginDescription {
    let abiMajor: UInt32
    let abiMinor: UInt32
    let name: String?
    let elements: [PluginElementDescription]
    var abiVersion: String { "\(abiMajor).\(abiMinor)" }
}

/// Reads a plugin's description in whichever layout its ABI version says, so every later
/// step sees one layout.
///
/// ABI 1.x: the frozen 1.0 structs (framelab_plugin_v1_layout.h). ABI 2.x: every struct
/// carries its struct_size and every array its stride; arrays are walked by the plugin's
/// stride, and only the bytes within both the plugin's struct_size and the host's struct
/// are copied, so a field a newer minor appended is skipped and one the plugin's older
/// minor lacks stays zero (NULL: absent). A size below 2.0's, or a stride below the
/// struct's size, is refused in one line naming the file.
enum PluginDescriptionLayout {
    /// Largest stride believed: a description is static data, not megabytes per element.
    static let maximumStride = 1 << 16
    /// Most elements, and parameters per element, a description may declare.
    static let maximumCount = 4096

    static func read(_ plugin: UnsafeRawPointer, path: String) throws -> PluginDescription {
        // abi_major and abi_minor are the first two uint32 in every major version.
        let major = plugin.load(as: UInt32.self)
        let minor = plugin.load(fromByteOffset: 4, as: UInt32.self)
        let abi = "\(major).\(minor)"
        func bad(_ what: String) -> FramelabError { FramelabError(.badInput, "\(path): \(what)") }
        switch major {
        case 1:
            guard minor <= PluginABI.newestV1Minor else {
                throw bad("built for plugin ABI \(abi), newer than the 1.\(PluginABI.newestV1Minor) this Framelab reads; rebuild it against the current framelab_plugin.h (ABI \(PluginABI.versionText))")
            }
            return try readV1(plugin.assumingMemoryBound(to: fl_plugin_v1.self).pointee, abi: (major, minor), bad: bad)
        case PluginABI.major:
            guard minor <= PluginABI.minor else {
                throw bad("built for plugin ABI \(abi), newer than this Framelab's \(PluginABI.versionText); update Framelab")
            }
            return try readV2(plugin, abi: (major, minor), bad: bad)
        default:
            throw bad("built for plugin ABI \(abi), but this Framelab reads ABI \(PluginABI.versionText) and 1.\(PluginABI.newestV1Minor) (major versions must match one of them; rebuild the plugin against the current framelab_plugin.h)")
        }
    }

    // MARK: ABI 2

    private static func readV2(_ plugin: UnsafeRawPointer, abi: (UInt32, UInt32),
                               bad: (String) -> FramelabError) throws -> PluginDescription {
        let size = Int(plugin.load(fromByteOffset: 8, as: UInt32.self))
        try checkSize(size, atLeast: pluginSizeAtV20, what: "fl_plugin.struct_size", bad: bad)
        let p = copy(fl_plugin(), from: plugin, size: size)
        guard p.element_count > 0, let elements = p.elements else { throw bad("the plugin describes no elements") }
        guard p.element_count <= maximumCount else { throw bad("declares \(p.element_count) elements (at most \(maximumCount))") }
        let stride = Int(p.element_stride)
        try checkSize(stride, atLeast: elementSizeAtV20, what: "fl_plugin.element_stride", bad: bad)
        var out: [PluginElementDescription] = []
        for i in 0..<Int(p.element_count) {
            let at = UnsafeRawPointer(elements) + i * stride
            let elementSize = Int(at.loadUnaligned(as: UInt32.self))
            let name = "element #\(i)"
            try checkSize(elementSize, atLeast: elementSizeAtV20, what: "\(name): struct_size", bad: bad)
            guard elementSize <= stride else {
                throw bad("\(name): struct_size \(elementSize) is larger than fl_plugin.element_stride \(stride) (set both with sizeof)")
            }
            var e = copy(fl_plugin_element(), from: at, size: elementSize)
            var params: [fl_plugin_param]? = e.params == nil ? nil : []
            if e.param_count > 0, let cParams = e.params {
                guard e.param_count <= maximumCount else { throw bad("\(name): declares \(e.param_count) parameters (at most \(maximumCount))") }
                let paramStride = Int(e.param_stride)
                try checkSize(paramStride, atLeast: paramSizeAtV20, what: "\(name): param_stride", bad: bad)
                for j in 0..<Int(e.param_count) {
                    let pAt = UnsafeRawPointer(cParams) + j * paramStride
                    let pSize = Int(pAt.loadUnaligned(as: UInt32.self))
                    try checkSize(pSize, atLeast: paramSizeAtV20, what: "\(name): parameter #\(j): struct_size", bad: bad)
                    guard pSize <= paramStride else {
                        throw bad("\(name): parameter #\(j): struct_size \(pSize) is larger than the element's param_stride \(paramStride) (set both with sizeof)")
                    }
                    params!.append(copy(fl_plugin_param(), from: pAt, size: pSize))
                }
            }
            e.params = nil  // the host reads the copies in `params`, never the plugin's array again
            e.param_stride = UInt32(MemoryLayout<fl_plugin_param>.stride)
            out.append(PluginElementDescription(element: e, params: params))
        }
        return PluginDescription(abiMajor: abi.0, abiMinor: abi.1, name: p.name.map { String(cString: $0) }, elements: out)
    }

    /// `zero` with the first min(size, host size) bytes taken from `source`: fields past the
    /// plugin's struct_size stay zero, bytes past the host's struct are never read.
    private static func copy<T>(_ zero: T, from source: UnsafeRawPointer, size: Int) -> T {
        var value = zero
        withUnsafeMutableBytes(of: &value) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: source, count: min(size, MemoryLayout<T>.size)))
        }
        return value
    }

    /// Where each struct's last 2.0 field ends: the least struct_size (and stride) a 2.x
    /// plugin may declare. Frozen at 2.0 on purpose: when a later minor appends fields the
    /// host's own sizeof grows, but a plugin built against 2.0 must keep loading.
    static let pluginSizeAtV20 = MemoryLayout<fl_plugin>.offset(of: \fl_plugin.element_count)! + 4
    static let elementSizeAtV20 =
        MemoryLayout<fl_plugin_element>.offset(of: \fl_plugin_element.set_parameter)! + MemoryLayout<UnsafeRawPointer>.size
    static let paramSizeAtV20 =
        MemoryLayout<fl_plugin_param>.offset(of: \fl_plugin_param.description)! + MemoryLayout<UnsafeRawPointer>.size

    private static func checkSize(_ size: Int, atLeast minimum: Int, what: String, bad: (String) -> FramelabError) throws {
        guard size >= minimum else {
            throw bad("\(what) \(size) is smaller than ABI 2.0's \(minimum) (set it with sizeof)")
        }
        guard size <= maximumStride else { throw bad("\(what) \(size) is implausibly large (at most \(maximumStride))") }
    }

    // MARK: ABI 1

    private static func readV1(_ p: fl_plugin_v1, abi: (UInt32, UInt32),
                               bad: (String) -> FramelabError) throws -> PluginDescription {
        guard p.element_count > 0, let elements = p.elements else { throw bad("the plugin describes no elements") }
        guard p.element_count <= maximumCount else { throw bad("declares \(p.element_count) elements (at most \(maximumCount))") }
        var out: [PluginElementDescription] = []
        for i in 0..<Int(p.element_count) {
            let v = elements[i]
            var e = fl_plugin_element()
            e.struct_size = UInt32(MemoryLayout<fl_plugin_element>.size)
            e.kind = v.kind
            e.name = v.name
            e.version = v.version
            e.description = v.description
            e.formats = v.formats
            e.format_count = v.format_count
            e.param_count = v.param_count
            e.user_data = v.user_data
            e.create = v.create
            e.output_format = v.output_format
            e.process = v.process
            e.detect = v.detect
            e.destroy = v.destroy
            var params: [fl_plugin_param]? = v.params == nil ? nil : []
            if v.param_count > 0, let cParams = v.params {
                guard v.param_count <= maximumCount else { throw bad("element #\(i): declares \(v.param_count) parameters (at most \(maximumCount))") }
                params = (0..<Int(v.param_count)).map { j in
                    let q = cParams[j]
                    return fl_plugin_param(struct_size: UInt32(MemoryLayout<fl_plugin_param>.size), name: q.name, type: q.type,
                                           minimum: q.minimum, maximum: q.maximum, default_number: q.default_number,
                                           default_string: q.default_string, choices: q.choices, description: q.description)
                }
            }
            out.append(PluginElementDescription(element: e, params: params))
        }
        return PluginDescription(abiMajor: abi.0, abiMinor: abi.1, name: p.name.map { String(cString: $0) }, elements: out)
    }
}
