import FramelabCore
import FramelabElements

/// An element's validated description as data: what the discovery worker sends the host
/// and the verdict cache keeps. It names no file (the same file content may sit at another
/// path); `info(path:)` puts the path back.
struct PluginElementRecord: Codable, Equatable, Sendable {
    struct Parameter: Codable, Equatable, Sendable {
        var name: String
        /// float, int, bool, enum or string.
        var type: String
        var choices: [String]?
        var minimum: Double?
        var maximum: Double?
        var defaultNumber: Double?
        var defaultInteger: Int?
        var defaultBool: Bool?
        var defaultText: String?
        var summary: String
    }

    var kind: String
    var name: String
    var version: String
    var summary: String
    var formats: [Int32]
    /// The output format of each of `formats`, in the same order; nil where output_format rejects it.
    var outputFormats: [Int32?]
    var parameters: [Parameter]
    var abiVersion: String

    init(_ info: PluginElementInfo) {
        kind = info.kind.rawValue
        name = info.name
        version = info.version
        summary = info.summary
        formats = info.formats.map(\.rawValue)
        outputFormats = info.formats.map { info.outputFormats[$0]?.rawValue }
        abiVersion = info.abiVersion
        parameters = info.parameters.map { p in
            var r = Parameter(name: p.name, type: "", minimum: p.minimum, maximum: p.maximum, summary: p.summary)
            switch p.type {
            case .float: r.type = "float"
            case .int: r.type = "int"
            case .bool: r.type = "bool"
            case .string: r.type = "string"
            case .enumeration(let choices): r.type = "enum"; r.choices = choices
            }
            switch p.defaultValue {
            case .float(let v): r.defaultNumber = v
            case .int(let v): r.defaultInteger = v
            case .bool(let v): r.defaultBool = v
            case .string(let v): r.defaultText = v
            }
            return r
        }
    }

    /// The description as the host uses it, for the file at `path`; nil when the record is
    /// malformed (a damaged cache file), so the caller asks the worker again.
    func info(path: String) -> PluginElementInfo? {
        guard let kind = PluginElementKind(rawValue: kind), formats.count == outputFormats.count else { return nil }
        var formatList: [PixelFormat] = []
        var outputs: [PixelFormat: PixelFormat] = [:]
        for (raw, out) in zip(formats, outputFormats) {
            guard let f = PixelFormat(rawValue: raw) else { return nil }
            formatList.append(f)
            if let out { outputs[f] = PixelFormat(rawValue: out) }
        }
        var specs: [ParameterSpec] = []
        for p in parameters {
            let type: ParameterType, value: ParameterValue
            switch (p.type, p.defaultNumber, p.defaultInteger, p.defaultBool, p.defaultText) {
            case ("float", let v?, nil, nil, nil): type = .float; value = .float(v)
            case ("int", nil, let v?, nil, nil): type = .int; value = .int(v)
            case ("bool", nil, nil, let v?, nil): type = .bool; value = .bool(v)
            case ("string", nil, nil, nil, let v?): type = .string; value = .string(v)
            case ("enum", nil, nil, nil, let v?):
                guard let choices = p.choices else { return nil }
                type = .enumeration(choices); value = .string(v)
            default: return nil
            }
            specs.append(ParameterSpec(name: p.name, type: type, minimum: p.minimum, maximum: p.maximum,
                                       defaultValue: value, summary: p.summary))
        }
        return PluginElementInfo(kind: kind, name: name, version: version, summary: summary, formats: formatList,
                                 outputFormats: outputs, parameters: specs, path: path, abiVersion: abiVersion)
    }
}
