import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small XML element tree (name, attributes, text, children) built with Foundation's
/// XMLParser, for the XML files Framelab reads: OpenCV cascades and dlib imglab lists.
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

    /// Parses the file at `path`; errors name the file and the parser's line.
    public static func parse(contentsOf path: String) throws -> XMLTree {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FramelabError(.io, "'\(path)': no such file or not readable")
        }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let why = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw FramelabError(.corrupt, "'\(path)' line \(parser.lineNumber): not well-formed XML (\(why))")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLTree?
        var stack: [XMLTree] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let node = XMLTree(name: name, attributes: attributes, line: parser.lineNumber)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
