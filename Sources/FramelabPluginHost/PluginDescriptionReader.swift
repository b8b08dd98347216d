import CFramelabPlugin
import FramelabCore
import FramelabElements

/// Reads and validates an element's C description into a `PluginElementInfo`.
///
/// Every rule a description can break is checked here, and each failure is one line
/// naming the file, the element and the parameter, so `plugins check` can say exactly
/// what is wrong. Text from the description is quoted with `quoted` wherever a message
/// repeats it (it may hold any bytes, line breaks included).
enum PluginDescriptionReader {
    static func read(_ d: PluginElementDescription, index: Int, path: String, abiVersion: String) throws -> PluginElementInfo {
        let e = d.element
        func bad(_ what: String, element: String? = nil) -> FramelabError {
            FramelabError(.badInput, "\(path): element \(element.map { "'\($0)'" } ?? "#\(index)"): \(what)")
        }
        guard let cName = e.name else { throw bad("has no name") }
        let name = String(cString: cName)
        guard isValidName(name, extra: "_-.") else {
            throw bad("name must be letters, digits, '_', '-' or '.' (got \(quoted(name)))")
        }
        func fail(_ what: String) -> FramelabError { bad(what, element: name) }

        let kind: PluginElementKind
        switch e.kind {
        case Int32(FL_PLUGIN_FILTER): kind = .filter
        case Int32(FL_PLUGIN_DETECTOR): kind = .detector
        default: throw fail("unknown kind \(e.kind) (expected FL_PLUGIN_FILTER or FL_PLUGIN_DETECTOR)")
        }
        let version = e.version.map { String(cString: $0) } ?? ""
        guard !version.isEmpty else { throw fail("has no version") }
        let summary = e.description.map { String(cString: $0) } ?? ""
        guard !summary.isEmpty, !summary.contains(where: \.isNewline) else { throw fail("needs a one-line description") }

        guard e.create != nil else { throw fail("has no create function") }
        guard e.destroy != nil else { throw fail("has no destroy function") }
        if kind == .filter, e.process == nil, e.process_frame == nil { throw fail("is a filter without a process (or process_frame) function") }
        if kind == .detector, e.detect == nil, e.detect_frame == nil { throw fail("is a detector without a detect (or detect_frame) function") }

        guard e.format_count > 0, let cFormats = e.formats else { throw fail("accepts no pixel formats") }
        var formats: [PixelFormat] = []
        for i in 0..<Int(e.format_count) {
            guard let f = PixelFormat(rawValue: cFormats[i]) else { throw fail("unknown pixel format \(cFormats[i])") }
            if !formats.contains(f) { formats.append(f) }
        }

        var outputFormats: [PixelFormat: PixelFormat] = [:]
        for f in formats {
            if let ask = e.output_format {
                outputFormats[f] = PixelFormat(rawValue: ask(e.user_data, f.rawValue))
            } else {
                outputFormats[f] = f
            }
        }

        guard e.param_count >= 0, e.param_count == 0 || d.params != nil else { throw fail("parameter list is missing") }
        var parameters: [ParameterSpec] = []
        for (i, p) in (d.params ?? []).enumerated() {
            let spec = try readParameter(p, index: i, fail: fail)
            if parameters.contains(where: { $0.name == spec.name }) { throw fail("parameter '\(spec.name)' is declared twice") }
            parameters.append(spec)
        }
        return PluginElementInfo(kind: kind, name: name, version: version, summary: summary, formats: formats,
                                 outputFormats: outputFormats, parameters: parameters, path: path, abiVersion: abiVersion)
    }

    private static func readParameter(_ p: fl_plugin_param, index: Int,
                                      fail: (String) -> FramelabError) throws -> ParameterSpec {
        guard let cName = p.name else { throw fail("parameter #\(index) has no name") }
        let name = String(cString: cName)
        guard isValidName(name, extra: "_-") else {
            throw fail("parameter name must be letters, digits, '_' or '-' (got \(quoted(name)))")
        }
        func bad(_ what: String) -> FramelabError { fail("parameter '\(name)' \(what)") }
        let summary = p.description.map { String(cString: $0) } ?? ""
        guard !summary.isEmpty, !summary.contains(where: \.isNewline) else { throw bad("needs a one-line description") }
        let text = p.default_string.map { String(cString: $0) }

        switch p.type {
        case Int32(FL_PARAM_FLOAT), Int32(FL_PARAM_INT):
            let isInt = p.type == Int32(FL_PARAM_INT)
            guard !p.minimum.isNaN, !p.maximum.isNaN, p.minimum <= p.maximum else {
                throw bad("has an empty or invalid range \(p.minimum)…\(p.maximum)")
            }
            let d = p.default_number
            guard d.isFinite else { throw bad("default \(d) is not a finite number") }
            let integer = Int(checked: d)
            if isInt, integer == nil || Double(integer!) != d { throw bad("default \(d) is not an integer that fits 64 bits") }
            let spec = ParameterSpec(name: name, type: isInt ? .int : .float,
                                     minimum: p.minimum.isFinite ? p.minimum : nil,
                                     maximum: p.maximum.isFinite ? p.maximum : nil,
                                     defaultValue: isInt ? .int(integer!) : .float(d), summary: summary)
            guard d >= p.minimum, d <= p.maximum else { throw bad("default \(spec.defaultValue) is outside \(spec.rangeText)") }
            return spec
        case Int32(FL_PARAM_BOOL):
            guard p.default_number == 0 || p.default_number == 1 else {
                throw bad("bool default must be 0 or 1, got \(p.default_number)")
            }
            return ParameterSpec(name: name, type: .bool, defaultValue: .bool(p.default_number == 1), summary: summary)
        case Int32(FL_PARAM_ENUM):
            let choices = (p.choices.map { String(cString: $0) } ?? "").split(separator: "|").map(String.init)
            guard !choices.isEmpty, !choices.contains(where: \.isEmpty) else { throw bad("is an enum without choices") }
            guard Set(choices).count == choices.count else { throw bad("lists a choice twice") }
            guard let text, choices.contains(text) else {
                throw bad("default \(quoted(text ?? "")) is not one of \(choices.map { quoted($0) }.joined(separator: ", "))")
            }
            return ParameterSpec(name: name, type: .enumeration(choices), defaultValue: .string(text), summary: summary)
        case Int32(FL_PARAM_STRING):
            return ParameterSpec(name: name, type: .string, defaultValue: .string(text ?? ""), summary: summary)
        default:
            throw bad("has unknown type \(p.type)")
        }
    }

    private static func isValidName(_ name: String, extra: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy {
            ($0.properties.isASCIIHexDigit || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
             || ("0"..."9").contains($0) || extra.unicodeScalars.contains($0))
        }
    }
}
