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
