import FramelabCore

/// A parsed JSON value. Numbers keep their text, so an integer is read exactly and a
/// double is Swift's correctly rounded parse of it (Foundation's JSONSerialization on
/// Linux hands long numbers back as NSDecimalNumber, whose doubleValue is off in the last
/// digits: an exported score would not read back equal).
enum JSONValue {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

/// A small strict JSON parser (RFC 8259) over UTF-8 bytes whose errors say where:
/// "line L column C: why". Nesting is limited (`maxDepth`) so a hostile file cannot
/// exhaust the stack.
struct JSONText {
    static let maxDepth = 256

    struct SyntaxError: Error {
        let line: Int, column: Int
        let why: String
    }

    private let bytes: [UInt8]
    private var i = 0

    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var p = JSONText(bytes: bytes)
        p.skipSpace()
        let value = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ why: String) -> SyntaxError {
        let before = bytes[..<min(i, bytes.count)]
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return SyntaxError(line: line, column: column, why: why)
    }

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nested deeper than \(Self.maxDepth) levels") }
        guard let c = current else { throw error("the file ends where a value was expected") }
        switch c {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character \(Self.describe(c)) where a value was expected")
        }
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, Array(bytes[i..<i + w.count]) == w else { throw error("expected '\(word)'") }
        i += w.count
    }

    private mutating func expect(_ c: Character) throws(SyntaxError) {
        guard current == c.asciiValue else {
            throw error(current.map { "expected '\(c)', got \(Self.describe($0))" } ?? "the file ends where '\(c)' was expected")
        }
        i += 1
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
        i += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try string()
            skipSpace()
            try expect(":")
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            if current == UInt8(ascii: ",") { i += 1; continue }
            try expect("}")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            if current == UInt8(ascii: ",") { i += 1; continue }
            try expect("]")
            return .array(items)
        }
    }

    /// `-? int frac? exp?` as JSON writes numbers; kept as text.
    private mutating func number() throws(SyntaxError) -> JSONValue {
        let start = i
        func digits(_ p: inout JSONText) -> Int {
            let s = p.i
            while let c = p.current, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { p.i += 1 }
            return p.i - s
        }
        if current == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        guard digits(&self) > 0 else { throw error("a number needs digits") }
        if bytes[intStart] == UInt8(ascii: "0") && i - intStart > 1 { i = intStart; throw error("a number cannot start with 0") }
        if current == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            i += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
    }

    private mutating func string() throws(SyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw error("the file ends inside a string") }
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard let e = current else { throw error("the file ends inside a string") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out += try unicodeEscape()
                default: i -= 1; throw error("unknown escape \\\(Self.describe(e))")
                }
            case 0..<0x20:
                i -= 1
                throw error("a control character inside a string (escape it)")
            default:
                out.append(c)
            }
        }
    }

    /// `\uXXXX` (after the `u`), a surrogate pair taking the next escape too; UTF-8 bytes.
    private mutating func unicodeEscape() throws(SyntaxError) -> [UInt8] {
        func hex4(_ p: inout JSONText) throws(SyntaxError) -> UInt32 {
            guard p.bytes.count - p.i >= 4, let v = UInt32(String(decoding: p.bytes[p.i..<p.i + 4], as: UTF8.self), radix: 16) else {
                throw p.error("\\u needs four hex digits")
            }
            p.i += 4
            return v
        }
        var v = try hex4(&self)
        if (0xD800..<0xDC00).contains(v) {
            guard bytes.count - i >= 2, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                throw error("a lone surrogate \\u escape")
            }
            i += 2
            let low = try hex4(&self)
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate \\u escape") }
            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(v) else { throw error("\\u escape of a lone surrogate") }
        return Array(String(Character(scalar)).utf8)
    }

    private static func describe(_ c: UInt8) -> String {
        let hex = String(c, radix: 16, uppercase: true)
        return c >= 0x20 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x" + (hex.count < 2 ? "0" : "") + hex
    }
}
