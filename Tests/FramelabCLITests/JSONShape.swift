import Foundation

/// A JSON value as parsed, keeping booleans apart from numbers (JSONSerialization gives
/// both as NSNumber on Linux).
indirect enum JSONValue: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var string: String? { if case .string(let s) = self { return s }; return nil }
    var number: Double? { if case .number(let n) = self { return n }; return nil }
    var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
}

/// The expected shape of a command's `--json` document: which keys each object has and
/// the type of every value. An object lists its keys exactly — a key missing, or one more
/// than documented, is a mismatch.
indirect enum JSONShape: Sendable {
    case string, number, integer, bool, any
    /// Every element has this shape (an empty array matches).
    case array(JSONShape)
    /// Exactly these keys, each with its shape.
    case object([String: JSONShape])
    /// Any keys, every value of this shape (counts by name, budgets by fps).
    case map(JSONShape)
    /// null, or the shape.
    case nullable(JSONShape)

    /// One line per mismatch, naming where in the document it is; empty when `value` fits.
    func mismatches(_ value: JSONValue, at path: String = "$") -> [String] {
        switch (self, value) {
        case (.any, _), (.string, .string), (.number, .number), (.bool, .bool), (.nullable, .null):
            return []
        case (.integer, .number(let n)):
            return n == n.rounded() ? [] : ["\(path): \(n) is not an integer"]
        case (.nullable(let inner), _):
            return inner.mismatches(value, at: path)
        case (.array(let element), .array(let items)):
            return items.enumerated().flatMap { element.mismatches($1, at: "\(path)[\($0)]") }
        case (.map(let element), .object(let fields)):
            return fields.keys.sorted().flatMap { element.mismatches(fields[$0]!, at: "\(path).\($0)") }
        case (.object(let keys), .object(let fields)):
            let missing = Set(keys.keys).subtracting(fields.keys).sorted().map { "\(path): no key '\($0)'" }
            let extra = Set(fields.keys).subtracting(keys.keys).sorted().map { "\(path): undocumented key '\($0)'" }
            return missing + extra + keys.keys.sorted().flatMap { key in
                fields[key].map { keys[key]!.mismatches($0, at: "\(path).\(key)") } ?? []
            }
        default:
            return ["\(path): expected \(self.name), got \(value)"]
        }
    }

    private var name: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .integer: return "an integer"
        case .bool: return "a boolean"
        case .any: return "anything"
        case .array: return "an array"
        case .object, .map: return "an object"
        case .nullable(let inner): return "null or \(inner.name)"
        }
    }
}
