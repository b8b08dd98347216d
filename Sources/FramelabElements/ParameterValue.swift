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
