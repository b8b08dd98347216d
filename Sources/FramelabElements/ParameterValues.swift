import FramelabCore

/// Checked parameter values for one element instance, defaults filled in.
public struct ParameterValues: Sendable {
    public private(set) var values: [String: ParameterValue]
    /// The element these values belong to, for error messages.
    public let element: String
    public let kind: ElementKind
    /// The names the user gave (the rest hold defaults), so a preset can fill only the knobs left unset.
    public let explicit: Set<String>

    public init(_ values: [String: ParameterValue], element: String = "", kind: ElementKind = .filter,
                explicit: Set<String> = []) {
        self.values = values
        self.element = element
        self.kind = kind
        self.explicit = explicit
    }

    /// The one parameter checker of filters, detectors and plugin elements: the spec's
    /// `key=value` arguments parsed against `parameters` (type and range), defaults filled in.
    /// Errors start with the element's kind and name: "detector 'x': unknown parameter 'y' (…)".
    public init(checking spec: ElementSpec, against parameters: [ParameterSpec], kind: ElementKind) throws {
        var values: [String: ParameterValue] = [:]
        for p in parameters { values[p.name] = p.defaultValue }
        var explicit: Set<String> = []
        for (key, text) in spec.arguments {
            guard let p = parameters.first(where: { $0.name == key }) else {
                let known = parameters.isEmpty ? "it takes none" : "known: " + parameters.map(\.name).joined(separator: ", ")
                throw FramelabError(.badInput, "\(kind.label(spec.name)): unknown parameter '\(key)' (\(known))")
            }
            values[key] = try p.parse(text, element: spec.name, kind: kind)
            explicit.insert(key)
        }
        self.init(values, element: spec.name, kind: kind, explicit: explicit)
    }

    /// These values with `name` changed to `value` (already checked), marked as given.
    public func setting(_ name: String, to value: ParameterValue) -> ParameterValues {
        var copy = values
        copy[name] = value
        return ParameterValues(copy, element: element, kind: kind, explicit: explicit.union([name]))
    }

    /// How errors name the element these values belong to: `filter 'sepia'`.
    public var label: String { kind.label(element) }

    public func isSet(_ name: String) -> Bool { explicit.contains(name) }

    public func double(_ name: String) -> Double {
        guard let v = values[name]?.doubleValue else { preconditionFailure("no numeric parameter '\(name)'") }
        return v
    }

    public func string(_ name: String) -> String {
        guard case .string(let v)? = values[name] else { preconditionFailure("no string parameter '\(name)'") }
        return v
    }

    public func bool(_ name: String) -> Bool {
        guard case .bool(let v)? = values[name] else { preconditionFailure("no bool parameter '\(name)'") }
        return v
    }
}
