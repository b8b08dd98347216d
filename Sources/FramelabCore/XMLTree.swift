import Foundation

/// A small XML element tree (name, attributes, text, children) for the XML files Framelab
/// reads: OpenCV cascades and dlib imglab lists. Built by Framelab's own reader (XMLReader).
public final class XMLTree {
    public let name: String
    public let attributes: [String: String]
    public internal(set) var text = ""
    public internal(set) var children: [XMLTree] = []
    /// The line the element starts on, for error messages.
    public let line: Int

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The first child named `name`.
    public func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Text with surrounding whitespace removed.
    public var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Parses the file at `path`; errors name the file and the line.
    public static func parse(contentsOf path: String) throws -> XMLTree {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FramelabError(.io, "'\(path)': no such file or not readable")
        }
        func notWellFormed(_ line: Int, _ why: String) -> FramelabError {
            FramelabError(.corrupt, "'\(path)' line \(line): not well-formed XML (\(why))")
        }
        let encoding = declaredEncoding(data)
        if let (line, why) = unreadable(data, declaring: encoding) { throw notWellFormed(line, why) }
        do {
            return try XMLReader.parse(utf8(data, declaring: encoding))
        } catch {
            throw notWellFormed(error.line, error.why)
        }
    }
}
