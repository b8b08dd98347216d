import FramelabCore

/// One parameter's metadata: name, type, range, default and a one-line description.
public struct ParameterSpec: Sendable, Equatable {
    public let name: String
    public let type: ParameterType
    public let minimum: Double?
    public let maximum: Double?
    public let defaultValue: ParameterValue
    public let summary: String

    public init(name: String, type: ParameterType, minimum: Double? = nil, maximum: Double? = nil,
                defaultValue: ParameterValue, summary: String) {
        self.name = name
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// Parses and checks a command-line value; errors start with the element's kind and name.
    public func parse(_ text: String, element: String, kind: ElementKind) throws -> ParameterValue {
        func bad(_ why: String) -> FramelabError {
            FramelabError(.badInput, "\(kind.label(element)): parameter '\(name)' \(why)")
        }
        let value: ParameterValue
        switch type {
        case .float:
            guard let v = Double(text), v.isFinite else { throw bad("expects a number, got '\(text)'") }
            value = .float(v)
        case .int:
            guard let v = Int(text) else { throw bad("expects an integer, got '\(text)'") }
            value = .int(v)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes", "on": value = .bool(true)
            case "false", "0", "no", "off": value = .bool(false)
            default: throw bad("expects true or false, got '\(text)'")
            }
        case .enumeration(let cases):
            guard cases.contains(text) else { throw bad("expects one of \(cases.joined(separator: ", ")), got '\(text)'") }
            value = .string(text)
        case .string:
            value = .string(text)
        }
        try checkRange(value, element: element, kind: kind)
        return value
    }

    /// Throws when a numeric value lies outside [minimum, maximum].
    public func checkRange(_ value: ParameterValue, element: String, kind: ElementKind) throws {
        guard let v = value.doubleValue else { return }
        if let minimum, v < minimum { throw outOfRange(value, element, kind) }
        if let maximum, v > maximum { throw outOfRange(value, element, kind) }
    }

    private func outOfRange(_ value: ParameterValue, _ element: String, _ kind: ElementKind) -> FramelabError {
        FramelabError(.badInput, "\(kind.label(element)): parameter '\(name)' = \(value) is outside \(rangeText)")
    }

    /// The range as text, for help and errors ("0…1", "any").
    public var rangeText: String {
        func fmt(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        switch (minimum, maximum) {
        case let (lo?, hi?): return "\(fmt(lo))…\(fmt(hi))"
        case let (lo?, nil): return ">= \(fmt(lo))"
        case let (nil, hi?): return "<= \(fmt(hi))"
        default: return "any"
        }
    }
}
