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
        func notWellFormed(_ line: Int, _ why: String) -> FramelabError {
            FramelabError(.corrupt, "'\(path)' line \(line): not well-formed XML (\(why))")
        }
        if let (line, why) = unreadable(data) { throw notWellFormed(line, why) }
        let builder = Builder()
        let parser = XMLParser(data: paddingEmptyInstructions(data))
        parser.delegate = builder
        let parsed = parser.parse()
        // Foundation's parser on Linux returns true from parse() after an error (a file cut
        // short, content after the root element): the delegate's record decides.
        if let open = builder.stack.last, builder.failure == nil || builder.endedEarly {
            throw notWellFormed(parser.lineNumber, "the file ends inside <\(open.name)> opened on line \(open.line)")
        }
        if let (line, why) = builder.failure { throw notWellFormed(line, why) }
        guard parsed, let root = builder.root else {
            let why = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw notWellFormed(parser.lineNumber, why)
        }
        return root
    }

    /// Builds the tree, and records the first error: the parser's, or structure it let through.
    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLTree?
        var stack: [XMLTree] = []
        var failure: (line: Int, why: String)?
        /// The first error was the data ending (or going on) where the document cannot.
        var endedEarly = false

        func fail(_ parser: XMLParser, _ why: String) {
            if failure == nil { failure = (parser.lineNumber, why) }
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: Error) {
            let code = (error as NSError).code
            if failure == nil { endedEarly = code == 5 }
            fail(parser, Self.libxml2Reasons[code] ?? "libxml2 error \(code)")
        }

        /// Foundation on Linux passes libxml2's error codes through (xmlerror.h); the common ones in words.
        static let libxml2Reasons: [Int: String] = [
            3: "no XML element at the start", 4: "the file is empty",
            5: "the file ends early, or has content after its root element", 9: "a character XML does not allow",
            34: "a quoted string is not closed", 38: "'<' inside an attribute value",
            39: "an attribute value is not quoted", 40: "an attribute value is not finished",
            41: "an attribute without a value", 42: "an attribute given twice", 44: "a literal is not finished",
            45: "a comment is not finished", 68: "a name is missing", 73: "'>' is missing", 74: "'</' is missing",
            76: "a closing tag does not match the element it closes", 77: "a tag is not finished",
            85: "elements are not balanced", 86: "content after the root element",
        ]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if root != nil && stack.isEmpty { return fail(parser, "<\(name)> after the root element ended") }
            let node = XMLTree(name: name, attributes: attributes, line: parser.lineNumber)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let open = stack.popLast(), open.name == name else { return fail(parser, "</\(name)> closes nothing") }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let current = stack.last else {
                if !string.allSatisfy(\.isWhitespace) { fail(parser, "text after the root element") }
                return
            }
            current.text += string
        }
    }
}
