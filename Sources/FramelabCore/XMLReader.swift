/// Framelab's own XML reader, for the two kinds of XML file it reads (OpenCV cascades, dlib
/// imglab lists): elements, attributes, character data (with the five named entities,
/// numeric references and CDATA sections), comments, processing instructions and a
/// DOCTYPE, which it skips. No namespaces, no external entities, no DTD validation.
///
/// Why not Foundation's XMLParser: on Linux it is libxml2 behind FoundationXML, which crashed
/// on broken files the fuzzers made (XMLTree+Screening.swift lists how), and whose shared
/// libraries every start of framelab loaded (about 2 MB of memory) for these two readers.
struct XMLReader {
    /// Where the reader stopped: the line and why.
    struct Failure: Error {
        let line: Int
        let why: String
    }

    private let bytes: [UInt8]
    private var at = 0
    private var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The document's root element, or the first thing that makes the document not well-formed.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLTree {
        var reader = XMLReader(bytes)
        return try reader.document()
    }

    // MARK: - The document

    private mutating func document() throws(Failure) -> XMLTree {
        if bytes.isEmpty { throw Failure(line: 1, why: "the file is empty") }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }  // a UTF-8 byte-order mark
        var root: XMLTree?
        var open: [XMLTree] = []
        while at < bytes.count {
            if bytes[at] != UInt8(ascii: "<") {
                let start = line
                let text = try characterData()
                if let current = open.last {
                    current.text += text
                } else if !text.allSatisfy(\.isWhitespace) {
                    throw Failure(line: start, why: root == nil ? "text before the root element" : "text after the root element")
                }
                continue
            }
            if try skipMarkupOtherThanElements(into: open.last) { continue }
            let tagLine = line
            if peek(1) == UInt8(ascii: "/") {
                at += 2
                let name = try self.name()
                skipSpace()
                guard take(UInt8(ascii: ">")) else { throw Failure(line: line, why: "'>' is missing after </\(printable(name))") }
                guard let current = open.popLast() else { throw Failure(line: tagLine, why: "</\(printable(name))> closes nothing") }
                guard current.name == name else {
                    throw Failure(line: tagLine, why: "</\(printable(name))> closes <\(printable(current.name))> opened on line \(current.line)")
                }
                continue
            }
            at += 1
            if root != nil && open.isEmpty { throw Failure(line: tagLine, why: "content after the root element") }
            let (element, selfClosing) = try startTag(line: tagLine)
            open.last?.children.append(element)
            if root == nil { root = element }
            if !selfClosing { open.append(element) }
        }
        if let current = open.last {
            throw Failure(line: line, why: "the file ends inside <\(printable(current.name))> opened on line \(current.line)")
        }
        guard let root else { throw Failure(line: line, why: "no root element") }
        return root
    }

    /// Skips a comment, a processing instruction or a DOCTYPE at `<`, or appends a CDATA
    /// section's text to `element`; false when `<` starts a tag.
    private mutating func skipMarkupOtherThanElements(into element: XMLTree?) throws(Failure) -> Bool {
        let start = line
        if starts(with: "<!--") {
            at += 4
            try skip(past: "-->", what: "a comment", from: start)
        } else if starts(with: "<?") {
            at += 2
            try skip(past: "?>", what: "a processing instruction", from: start)
        } else if starts(with: "<![CDATA[") {
            guard let element else { throw Failure(line: start, why: "a CDATA section outside every element") }
            at += 9
            let from = at
            try skip(past: "]]>", what: "a CDATA section", from: start)
            element.text += String(decoding: bytes[from..<(at - 3)], as: UTF8.self)
        } else if starts(with: "<!DOCTYPE") {
            at += 9
            var depth = 0  // inside the internal subset's [ … ]
            while at < bytes.count {
                let b = bytes[at]
                advance()
                if b == UInt8(ascii: "[") { depth += 1 }
                if b == UInt8(ascii: "]") { depth -= 1 }
                if b == UInt8(ascii: ">") && depth <= 0 { return true }
            }
            throw Failure(line: start, why: "a DOCTYPE opened on line \(start) is not closed")
        } else if starts(with: "<!") {
            throw Failure(line: start, why: "'<!' starts no comment, CDATA section or DOCTYPE")
        } else {
            return false
        }
        return true
    }

    // MARK: - Tags

    /// After `<`: the element's name and attributes, and whether it closed itself (`/>`).
    private mutating func startTag(line tagLine: Int) throws(Failure) -> (XMLTree, Bool) {
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
            let spaced = skipSpace()
            if take(UInt8(ascii: ">")) { break }
            if starts(with: "/>") {
                at += 2
                return (XMLTree(name: name, attributes: attributes, line: tagLine), true)
            }
            if at >= bytes.count { throw Failure(line: line, why: "the file ends inside the tag <\(printable(name))> opened on line \(tagLine)") }
            guard spaced else { throw Failure(line: line, why: "a tag is not finished: <\(printable(name))> needs a space before its next attribute") }
            let key = try self.name()
            skipSpace()
            guard take(UInt8(ascii: "=")) else { throw Failure(line: line, why: "the attribute '\(printable(key))' has no value") }
            skipSpace()
            let value = try attributeValue(of: key)
            guard attributes.updateValue(value, forKey: key) == nil else {
                throw Failure(line: line, why: "the attribute '\(printable(key))' is given twice")
            }
        }
        return (XMLTree(name: name, attributes: attributes, line: tagLine), false)
    }

    /// A quoted attribute value, its references replaced and its line breaks and tabs made
    /// spaces (XML's attribute-value normalisation).
    private mutating func attributeValue(of key: String) throws(Failure) -> String {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
            throw Failure(line: line, why: "the value of '\(printable(key))' is not quoted")
        }
        let quote = bytes[at]
        let start = line
        at += 1
        var value: [UInt8] = []
        while at < bytes.count, bytes[at] != quote {
            let b = bytes[at]
            if b == UInt8(ascii: "<") { throw Failure(line: line, why: "'<' inside the value of '\(printable(key))'") }
            if b == UInt8(ascii: "&") {
                value += try reference()
                continue
            }
            value.append(b == 0x0A || b == 0x0D || b == 0x09 ? 0x20 : b)
            advance()
        }
        guard take(quote) else { throw Failure(line: start, why: "the value of '\(printable(key))' opened on line \(start) is not closed") }
        return String(decoding: value, as: UTF8.self)
    }

    /// An XML name: a letter, `_`, `:` or any non-ASCII character, then also digits, `-` and `.`.
    private mutating func name() throws(Failure) -> String {
        let from = at
        while at < bytes.count {
            let b = bytes[at]
            let letter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x3A || b >= 0x80
            let later = (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
            guard letter || (later && at > from) else { break }
            at += 1
        }
        guard at > from else {
            let what = at < bytes.count ? quoted(String(Unicode.Scalar(bytes[at]))) : "the end of the file"
            throw Failure(line: line, why: "a name is missing (found \(what))")
        }
        return String(decoding: bytes[from..<at], as: UTF8.self)
    }

    // MARK: - Character data

    /// Text up to the next `<`, its references replaced.
    private mutating func characterData() throws(Failure) -> String {
        var text: [UInt8] = []
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            if bytes[at] == UInt8(ascii: "&") {
                text += try reference()
            } else if bytes[at] == 0x0D {  // XML's line ends: CR LF and a lone CR read as LF
                text.append(0x0A)
                at += 1
                if at < bytes.count, bytes[at] == 0x0A { advance() } else { line += 1 }
            } else {
                text.append(bytes[at])
                advance()
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// At `&`: the UTF-8 bytes of `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;`.
    private mutating func reference() throws(Failure) -> [UInt8] {
        let start = at
        at += 1
        while at < bytes.count, at - start <= 12, bytes[at] != UInt8(ascii: ";") { at += 1 }
        guard at < bytes.count, bytes[at] == UInt8(ascii: ";") else {
            throw Failure(line: line, why: "'&' starts no reference (write &amp; for a literal '&')")
        }
        let body = String(decoding: bytes[(start + 1)..<at], as: UTF8.self)
        at += 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let digits = body.dropFirst(body.hasPrefix("#x") ? 2 : 1)
            guard body.hasPrefix("#"), let code = UInt32(digits, radix: body.hasPrefix("#x") ? 16 : 10),
                  code != 0, let scalar = Unicode.Scalar(code) else {
                throw Failure(line: line, why: "the reference &\(printable(body)); is not one XML defines")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    // MARK: - Moving on

    private func peek(_ offset: Int) -> UInt8? { at + offset < bytes.count ? bytes[at + offset] : nil }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        let base = literal.utf8Start
        for i in 0..<count where bytes[at + i] != base[i] { return false }
        return true
    }

    private mutating func advance() {
        if bytes[at] == 0x0A { line += 1 }
        at += 1
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        advance()
        return true
    }

    /// Skips spaces, tabs and line breaks; whether there were any.
    @discardableResult
    private mutating func skipSpace() -> Bool {
        let from = at
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { advance() }
        return at > from
    }

    /// Moves past the next `end`, counting lines; fails naming `what` when the file ends first.
    private mutating func skip(past end: StaticString, what: String, from start: Int) throws(Failure) {
        while at < bytes.count {
            if starts(with: end) {
                at += end.utf8CodeUnitCount
                return
            }
            advance()
        }
        throw Failure(line: start, why: "\(what) opened on line \(start) is not closed")
    }
}
