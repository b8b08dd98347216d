import Foundation

extension XMLTree {
    /// Why the bytes must not reach Foundation's XMLParser, with the line; nil when they may.
    /// On Linux it crashes on some broken files (found by fuzzing): after a NUL byte, or a
    /// failed switch to a declared encoding, libxml2's error callback can leave it parsing on
    /// with a freed context; bytes that are not UTF-8 can reach its element callbacks, which
    /// trap on them. So Framelab reads UTF-8 (or ASCII) XML, and ISO-8859-1 XML (dlib's imglab
    /// declares it; every byte is a Latin-1 character, so converting it cannot fail): XML
    /// forbids NUL everywhere, and a declaration naming another encoding is refused.
    static func unreadable(_ data: Data) -> (line: Int, why: String)? {
        func line(at offset: Int) -> Int { 1 + data.prefix(offset).filter { $0 == 0x0A }.count }
        if let nul = data.firstIndex(of: 0) {
            return (line(at: nul - data.startIndex), "a NUL byte: not UTF-8 XML (UTF-16 and UTF-32 files are not read)")
        }
        let encoding = declaredEncoding(String(decoding: data.prefix(200), as: UTF8.self))
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

    /// The `encoding` of the XML declaration at the start of `text`, if it has one.
    static func declaredEncoding(_ text: String) -> String? {
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        guard body.hasPrefix("<?xml"), let end = body.range(of: "?>") else { return nil }
        let declaration = body[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "'" || quote == "\"" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }.prefix(40))
    }

    /// The document with a space put before the `?>` of every processing instruction that
    /// has a target and no data (`<?target?>`). For such an instruction libxml2 hands
    /// Foundation's XMLParser on Linux a null data pointer, which it reads as a C string:
    /// a segmentation fault on any file holding one. With the space libxml2 hands it "".
    /// XMLTree keeps no instructions, so the tree is the same; only inside a comment or
    /// CDATA would the text gain the space. Line numbers do not change.
    static func paddingEmptyInstructions(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let lt = UInt8(ascii: "<"), question = UInt8(ascii: "?"), gt = UInt8(ascii: ">")
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var cuts: [Int] = []  // where a space goes: before the `?>` of an instruction without data
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == lt, bytes[i + 1] == question else { i += 1; continue }
            var j = i + 2
            while j < bytes.count, !isSpace(bytes[j]), bytes[j] != question, bytes[j] != gt { j += 1 }
            if j > i + 2, j + 1 < bytes.count, bytes[j] == question, bytes[j + 1] == gt { cuts.append(j) }
            i = max(j, i + 2)
        }
        guard !cuts.isEmpty else { return data }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + cuts.count)
        var from = 0
        for cut in cuts {
            out += bytes[from..<cut]
            out.append(0x20)
            from = cut
        }
        out += bytes[from...]
        return Data(out)
    }
}
