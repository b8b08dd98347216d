import Foundation

extension XMLTree {
    /// Why the bytes are not XML Framelab reads, with the line; nil when they are. Framelab
    /// reads UTF-8 (or ASCII) XML, and ISO-8859-1 XML (dlib's imglab declares it; every byte is
    /// a Latin-1 character, so converting it cannot fail). XML forbids NUL everywhere, and a
    /// declaration naming another encoding is refused. (These checks were first written
    /// because libxml2, behind Foundation's XMLParser, crashed on such files; Framelab's own
    /// reader does not, and the messages stay clearer than U+FFFD in a name.)
    /// `encoding` is the declaration's (`declaredEncoding`), nil for none.
    static func unreadable(_ data: Data, declaring encoding: String?) -> (line: Int, why: String)? {
        func line(at offset: Int) -> Int { 1 + data.prefix(offset).filter { $0 == 0x0A }.count }
        if let nul = data.firstIndex(of: 0) {
            return (line(at: nul - data.startIndex), "a NUL byte: not UTF-8 XML (UTF-16 and UTF-32 files are not read)")
        }
        switch encoding?.lowercased() {
        case "iso-8859-1", "latin1":
            return nil
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            guard String(validating: data, as: UTF8.self) == nil else { return nil }
            let valid = data.prefix { $0 < 0x80 }.count  // at or before the first bad byte
            return (line(at: valid), "not UTF-8 text (Framelab reads UTF-8 and declared ISO-8859-1 XML)")
        default:
            return (1, "the declaration names encoding \((encoding ?? "").debugDescription); Framelab reads UTF-8 and ISO-8859-1 XML")
        }
    }

    /// The document's bytes as UTF-8: converted from ISO-8859-1 when it declares that.
    static func utf8(_ data: Data, declaring encoding: String?) -> [UInt8] {
        switch encoding?.lowercased() {
        case "iso-8859-1", "latin1":
            return Array((String(data: data, encoding: .isoLatin1) ?? "").utf8)
        default:
            return [UInt8](data)
        }
    }

    /// The `encoding` of the XML declaration at the start of the document, if it has one.
    static func declaredEncoding(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(200), as: UTF8.self)
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        guard body.hasPrefix("<?xml"), let end = body.range(of: "?>") else { return nil }
        let declaration = body[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "'" || quote == "\"" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }.prefix(40))
    }
}
