import Foundation
import FramelabCore

/// A value of a parsed JSON file with its place in it (`annotations[3].bbox`), so every
/// complaint is one line naming the file and the element. Numbers are checked before they
/// become integers (never a trapping conversion); booleans are not numbers.
struct JSONNode {
    let value: Any
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
            return JSONNode(value: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]), path: "",
                            file: file, what: what)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw FramelabError(.badInput, "\(what) '\(file)'\(location(of: detail, in: data)): not valid JSON: \(detail)")
        }
    }

    /// " line L column C" for Foundation's "… around character N." (N counts bytes), or "".
    private static func location(of detail: String, in data: Data) -> String {
        guard let range = detail.range(of: "character "),
              let offset = Int(detail[range.upperBound...].prefix { $0.isNumber }), offset <= data.count else { return "" }
        let before = data.prefix(offset)
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return " line \(line) column \(column)"
    }

    func error(_ why: String) -> FramelabError {
        FramelabError(.badInput, "\(what) '\(file)'\(path.isEmpty ? "" : " " + path): \(why)")
    }

    private func child(_ value: Any, _ path: String) -> JSONNode { JSONNode(value: value, path: path, file: file, what: what) }

    func array() throws -> [JSONNode] {
        guard let list = value as? [Any] else { throw error("expected an array, got \(kind)") }
        return list.enumerated().map { child($1, "\(path)[\($0)]") }
    }

    /// The member `key` of this object, nil when absent (or null).
    func member(_ key: String) throws -> JSONNode? {
        guard let object = value as? [String: Any] else { throw error("expected an object, got \(kind)") }
        guard let v = object[key], !(v is NSNull) else { return nil }
        return child(v, path.isEmpty ? key : "\(path).\(key)")
    }

    func required(_ key: String) throws -> JSONNode {
        guard let node = try member(key) else { throw error("missing \"\(key)\"") }
        return node
    }

    private var isBoolean: Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"  // how Foundation marks true/false
    }

    /// A finite number.
    func number() throws -> Double {
        guard !isBoolean, let n = value as? NSNumber else { throw error("expected a number, got \(kind)") }
        let d = n.doubleValue
        guard d.isFinite else { throw error("\(d) is not a finite number") }
        return d
    }

    /// An integer: a number with no fraction that fits an Int.
    func integer() throws -> Int {
        guard !isBoolean, let n = value as? NSNumber else { throw error("expected an integer, got \(kind)") }
        if let i = value as? Int { return i }
        guard let i = Int(exactly: n.doubleValue) else { throw error("\(n) is not an integer") }
        return i
    }

    /// 0/1 or false/true.
    func flag() throws -> Bool {
        if isBoolean, let b = value as? Bool { return b }
        let i = try integer()
        guard i == 0 || i == 1 else { throw error("expected 0 or 1, got \(i)") }
        return i == 1
    }

    func string() throws -> String {
        guard let s = value as? String else { throw error("expected a string, got \(kind)") }
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
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case is NSNull: return "null"
        default: return isBoolean ? "a boolean" : (value is NSNumber ? "a number" : "\(type(of: value))")
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
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
