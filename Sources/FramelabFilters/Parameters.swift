import FramelabCore

/// The type of a filter or detector parameter, as Core Image's attributes describe them.
public enum ParameterType: Sendable, Equatable, CustomStringConvertible {
    case float
    case int
    case bool
    case enumeration([String])
    case string

    public var description: String {
        switch self {
        case .float: return "float"
        case .int: return "int"
        case .bool: return "bool"
        case .enumeration(let cases): return "enum(\(cases.joined(separator: "|")))"
        case .string: return "string"
        }
    }
}

/// A parameter value.
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible {
    case float(Double)
    case int(Int)
    case bool(Bool)
    case string(String)

    public var description: String {
        switch self {
        case .float(let v): return String(v)
        case .int(let v): return String(v)
        case .bool(let v): return String(v)
        case .string(let v): return v
        }
    }

    /// The value as a Double, for numeric parameters.
    public var doubleValue: Double? {
        switch self {
        case .float(let v): return v
        case .int(let v): return Double(v)
        case .bool(let v): return v ? 1 : 0
        case .string: return nil
        }
    }
}

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

    /// Parses and checks a command-line value; `element` names the filter in errors.
    public func parse(_ text: String, element: String) throws -> ParameterValue {
        func bad(_ why: String) -> FramelabError {
            FramelabError(.badInput, "filter '\(element)': parameter '\(name)' \(why)")
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
        try checkRange(value, element: element)
        return value
    }

    /// Throws when a numeric value lies outside [minimum, maximum].
    public func checkRange(_ value: ParameterValue, element: String) throws {
        guard let v = value.doubleValue else { return }
        if let minimum, v < minimum { throw outOfRange(value, element) }
        if let maximum, v > maximum { throw outOfRange(value, element) }
    }

    private func outOfRange(_ value: ParameterValue, _ element: String) -> FramelabError {
        FramelabError(.badInput, "filter '\(element)': parameter '\(name)' = \(value) is outside \(rangeText)")
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

/// Checked parameter values for one filter instance, defaults filled in.
public struct ParameterValues: Sendable {
    public private(set) var values: [String: ParameterValue]
    /// The filter these values belong to, for error messages.
    public let element: String

    public init(_ values: [String: ParameterValue], element: String = "") {
        self.values = values
        self.element = element
    }

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
