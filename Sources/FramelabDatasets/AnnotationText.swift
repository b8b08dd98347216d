import Foundation
import FramelabCore

/// Lines of an annotation text file with their 1-based numbers, for loaders that must
/// name the line they reject.
struct AnnotationText {
    let path: String
    let lines: [Substring]

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FramelabError(.io, "annotation '\(path)': no such file or not readable")
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw FramelabError(.corrupt, "annotation '\(path)': not a text file")
        }
        self.path = path
        lines = Self.lines(of: text)
    }

    /// Lines ended by LF, CRLF or a lone CR. In Swift "\r\n" is one Character, which a
    /// split on "\n" never matches: a Windows file would be one line.
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    }

    /// Whitespace-separated numbers of line `index` (0-based), or an error naming it.
    func numbers(_ index: Int, count: ClosedRange<Int>, what: String) throws -> [Double] {
        let fields = lines[index].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard count.contains(fields.count) else {
            throw malformed(path, index + 1, "expected \(what), got \(quoted(lines[index]))")
        }
        return try fields.map {
            guard let v = Double($0), v.isFinite else {
                throw malformed(path, index + 1, "\(quoted($0)) is not a number in \(quoted(lines[index]))")
            }
            return v
        }
    }

    /// A non-negative integer count on line `index`.
    func count(_ index: Int, what: String) throws -> Int {
        guard index < lines.count else { throw malformed(path, index + 1, "file ends where \(what) was expected") }
        let t = lines[index].trimmingCharacters(in: .whitespaces)
        guard let n = Int(t), n >= 0 else { throw malformed(path, index + 1, "expected \(what), got \(quoted(t))") }
        return n
    }
}

/// Joins a relative path onto a folder (absolute paths stay as they are).
func resolve(_ path: String, relativeTo folder: String) -> String {
    path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
}
