import Foundation
import FramelabCore

/// A value of a parsed JSON file with its place in it (`annotations[3].bbox`), so every
/// complaint is one line naming the file and the element. Numbers are checked before they
/// become integers (never a trapping conversion); booleans are not numbers.
struct JSONNode {
    let value: JSONValue
    /// The element's path, `` for the top.
    let path: String
    let file: String
    /// What the file is, for messages ("coco", "predictions").
    let what: String

    /// Parses `file`; a syntax error names the line and column.
    static func parse(file: String, what: String) throws -> JSONNode {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FramelabError(.io, "\(what) '\(file)': no such file or not readable")
        }
        do {
            return JSONNode(value: try JSONText.parse(Array(data)), path: "", file: file, what: what)
        } catch {
            throw FramelabError(.badInput, "\(what) '\(file)' line \(error.line) column \(error.column): not valid JSON: \(error.why)")
        }
    }

    func error(_ why: String) -> FramelabError {
        FramelabError(.badInput, "\(what) '\(file)'\(path.isEmpty ? "" : " " + path): \(why)")
    }

    private func child(_ value: JSONValue, _ path: String) -> JSONNode {
        JSONNode(value: value, path: path, file: file, what: what)
    }

    func array() throws -> [JSONNode] {
        guard case .array(let list) = value else { throw error("expected an array, got \(kind)") }
        return list.enumerated().map { child($1, "\(path)[\($0)]") }
    }

    /// The member `key` of this object, nil when absent (or null).
    func member(_ key: String) throws -> JSONNode? {
        guard case .object(let object) = value else { throw error("expected an object, got \(kind)") }
        guard let v = object[key] else { return nil }
        if case .null = v { return nil }
        return child(v, path.isEmpty ? key : "\(path).\(key)")
    }

    func required(_ key: String) throws -> JSONNode {
        guard let node = try member(key) else { throw error("missing \"\(key)\"") }
        return node
    }

    /// A finite number (Swift's correctly rounded parse of the file's digits).
    func number() throws -> Double {
        guard case .number(let text) = value else { throw error("expected a number, got \(kind)") }
        guard let d = Double(text), d.isFinite else { throw error("\(text) is not a finite number") }
        return d
    }

    /// An integer: digits with no fraction that fit an Int (`3`, `3.0` and `3e2` are accepted).
    func integer() throws -> Int {
        guard case .number(let text) = value else { throw error("expected an integer, got \(kind)") }
        if let i = Int(text) { return i }
        guard let d = Double(text), let i = Int(exactly: d) else { throw error("\(text) is not an integer") }
        return i
    }

    /// 0/1 or false/true.
    func flag() throws -> Bool {
        if case .bool(let b) = value { return b }
        let i = try integer()
        guard i == 0 || i == 1 else { throw error("expected 0 or 1, got \(i)") }
        return i == 1
    }

    func string() throws -> String {
        guard case .string(let s) = value else { throw error("expected a string, got \(kind)") }
        return s
    }

    /// `[x, y, w, h]`: four finite numbers, width and height not negative.
    func box() throws -> FaceBox {
        let v = try array()
        guard v.count == 4 else { throw error("expected [x, y, width, height], got \(v.count) numbers") }
        let n = try v.map { try $0.number() }
        guard n[2] >= 0, n[3] >= 0 else { throw error("negative width or height") }
        return FaceBox(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    private var kind: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// `text` as a JSON string literal (quotes, backslashes and control characters escaped).
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
