import Foundation
import FramelabCore
@testable import FramelabDatasets
import FramelabTestSupport
import Testing

/// Inputs `scripts/fuzz.sh` found crashing Framelab (docs/reliability.md, "Fuzzing"), each
/// inlined: every one now loads or is a one-line error naming the file.
@Suite struct FuzzRegressionTests {
    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let e as FramelabError { return e.message } catch { return "not a FramelabError: \(error)" }
        Issue.record("expected an error")
        return ""
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try TestSupport.makeTemporaryDirectory("fuzz-regression").appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A processing instruction without data (`<?xg?>`): Foundation's parser read a null
    /// pointer as its data (a segmentation fault). Now it loads.
    @Test func xmlInstructionWithoutDataLoads() throws {
        let xml = "<?xg?>\n<dataset><images><image file='a.jpg'><?pi?>\n"
            + "<box top='1' left='2' width='3' height='4'/></image></images></dataset>\n"
        let path = try write(Array(xml.utf8), "pi.xml")
        let d = try FaceDataset.load("dlib:" + path)
        #expect(d.images.map(\.faces.count) == [1])
        #expect(try XMLTree.parse(contentsOf: path).child("images")?.child("image")?.line == 2)
    }

    /// NUL bytes before the declaration: the parser's error callback left Foundation parsing
    /// on with a freed context (a segmentation fault).
    @Test func xmlWithNulBytesIsAOneLineError() throws {
        let bytes: [UInt8] = [0, 0, 0] + Array("<?xml version='1.0'?>".utf8) + [0, 0x32, 0, 0, 0, 0, 0, 0, 0]
            + Array("<\n<da?<?><ste>\n<ieftei?".utf8) + [0x8E] + Array(">\n<?>".utf8)
        let path = try write(bytes, "nul.xml")
        let m = message { _ = try FaceDataset.load("dlib:" + path) }
        #expect(m.contains(path) && m.contains("line 1") && m.contains("NUL") && !m.contains("\n"), "\(m)")
    }

    /// An element name that is not UTF-8: Foundation's element callback trapped on it.
    @Test func xmlNameNotUTF8IsAOneLineError() throws {
        let bytes: [UInt8] = [0x3C] + Array(repeating: 0xCF, count: 29)
            + Array("a x=\"1\" y'&=amp;&lt;'><b/></a>\n".utf8)
        let path = try write(bytes, "latin.xml")
        let m = message { _ = try XMLTree.parse(contentsOf: path) }
        #expect(m.contains(path) && m.contains("not UTF-8") && !m.contains("\n"), "\(m)")
        // A declaration naming another encoding made libxml2 switch encodings, and one such
        // file crashed Foundation's parser too: UTF-8 and ISO-8859-1 (what dlib declares) only.
        let declared = try write(Array("<?xml version='1.0' encoding='ISO-8859-7'?>\n<ima version=".utf8) + [0xFF, 0xFF, 0xFF]
                                 + Array("%' encoding='ISO-8859-1'?>\n<image fe=maget>?".utf8), "declared.xml")
        let d = message { _ = try XMLTree.parse(contentsOf: declared) }
        #expect(d.contains(declared) && d.contains("encoding \"ISO-8859-7\"") && !d.contains("\n"), "\(d)")
        let latin = try write(Array("<?xml version='1.0' encoding='ISO-8859-1'?>\n".utf8) + [0x3C, 0xE9, 0x2F, 0x3E], "latin-declared.xml")
        #expect(try XMLTree.parse(contentsOf: latin).name == "é")
        let utf8 = try write(Array("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<é a='ü'/>\n".utf8), "utf8.xml")
        #expect(try XMLTree.parse(contentsOf: utf8).attributes["a"] == "ü")
    }

    /// Framelab's own XML reader (XMLReader) quoted the character where a name was missing,
    /// and names themselves, as they were: a line break, a vertical tab or U+2028 made the
    /// message span lines (fuzz-xml-tree, fuzz-dlib-xml, fuzz-cascade). Now they are escaped.
    @Test func xmlReaderMessagesStayOnOneLine() throws {
        let cases: [(String, String)] = [
            ("<dataset>\n<\n/dataset>\n", "a name is missing"),
            ("<dataset><images>\n    <\u{0B}box top='0'/></images></dataset>\n", "a name is missing"),
            ("<a\u{2028}b></c>\n", "closes <a\\u{2028}b>"),
            ("<a x\u{2029} y='2'/>", "has no value"),
        ]
        for (k, (xml, expected)) in cases.enumerated() {
            let path = try write(Array(xml.utf8), "one-line-\(k).xml")
            let m = message { _ = try XMLTree.parse(contentsOf: path) }
            #expect(m.contains(path) && m.contains(expected) && !m.contains(where: \.isNewline), "\(m)")
        }
    }

    /// A MATLAB 5 file: the 128-byte header and `elements`, little-endian.
    func mat5(_ elements: [UInt8]) -> [UInt8] {
        var header = Array("MATLAB 5.0 MAT-file".utf8)
        header += Array(repeating: 0x20, count: 124 - header.count) + [0x00, 0x01, 0x49, 0x4D]
        return header + elements
    }

    func le32(_ values: UInt32...) -> [UInt8] { values.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } } }

    /// An array element: flags (class), 1×1 dimensions, a name holding a line break, then `rest`.
    func matrix(arrayClass: UInt32, rest: [UInt8]) -> [UInt8] {
        let name = Array("a\nb".utf8) + [0, 0, 0, 0, 0]
        let body = le32(6, 8, arrayClass, 0) + le32(5, 8, 1, 1) + le32(1, 3) + name + rest
        return le32(14, UInt32(body.count)) + body
    }

    /// A variable name with a line break, in an error about the element and in the list of
    /// variables a missing one names: the message spanned lines.
    @Test func mat5VariableNamesStayOnOneLine() throws {
        // A cell whose element is a "small" element claiming 8258 bytes.
        let cell = matrix(arrayClass: 1, rest: le32(0x2042_0001, 0))
        let m = message { _ = try MAT5File(bytes: mat5(cell), path: "input.mat") }
        #expect(m.contains("input.mat") && m.contains("'a\\nb' cell 1 of 1") && !m.contains("\n"), "\(m)")

        let double = matrix(arrayClass: 6, rest: le32(9, 8) + [0, 0, 0, 0, 0, 0, 0xF8, 0x3F])
        let file = try MAT5File(bytes: mat5(double), path: "input.mat")
        #expect(file.variables.map(\.name) == ["a\nb"])
        let missing = message { _ = try file.variable("event_list") }
        #expect(missing.contains("it has: 'a\\nb'") && !missing.contains("\n"), "\(missing)")
    }

    /// A --predictions path with runs of slashes: Foundation's NSString path methods trapped.
    @Test func predictionPathsWithRunsOfSlashes() throws {
        let spec = try PredictionSpec(parsing: "x////////////////////////\u{12}\u{12}\u{12}//////////:ff=3")
        #expect(spec.format == .fddb && spec.name == "ff=3")
        let unnamed = try PredictionSpec(parsing: "a///////////b//c.json")
        #expect(unnamed.format == .coco && unnamed.name == "c" && unnamed.path == "a///////////b//c.json")
        #expect(PredictionFormat.detect("a///////////b//") == .fddb)
        #expect(collapsingSlashes("//a///b//") == "/a/b/" && collapsingSlashes("a/b") == "a/b")
    }

    /// A dataset path with runs of slashes loads as the path without them (the loaders'
    /// NSString path methods trapped on such paths).
    @Test func datasetPathsWithRunsOfSlashes() throws {
        let tests = TestSupport.packageRoot.appendingPathComponent("Tests/FramelabDatasetsTests").path
        let plain = try FaceDataset.load("wider:" + tests + "/Fixtures")
        let slashes = try FaceDataset.load("wider:" + tests + "///////////Fixtures//")
        #expect(slashes.images == plain.images && !plain.images.isEmpty)
        #expect(slashes.path == tests + "///////////Fixtures//")  // the dataset keeps the path as given
    }

    /// A WIDER kit file whose blur/expression/... label lists have fewer cells than
    /// `event_list` (found by the short fuzz pass of a clean-clone CI run): indexing the
    /// missing cell trapped. Now a one-line error naming the file and the list.
    @Test func widerKitLabelListsShorterThanTheEvents() throws {
        let base64 =
            "TUFUTEFCIDUuMCBNQVQtZmlsZSBQbGF0Zm9ybTogcG9zaXgsIENyZWF0ZWQgb246IFdlZCBOb3YgMjUgMTI6Mjc6NTggMjAyNgAA"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABSU0OAAAAgAAAAAYAAAAIAAAAAQAAAAAA"
            + "AAAFAAAACAAAAAEAAAABAAAAAQAAAAoAAABldmVudF9saXN0AAAAAAAADgAAAEAAAAAGAAAACAAAAAQAAAAAAAAABQAAAAgAAAAB"
            + "AAAACQAAAAEAAAAAAAAAEAAAAAkAAAAwLS1QYXJhZGUAAAAAAAAADgAAALAAAAAGAAAACAAAAAEAAAAAAAAABQAAAAgAAAABAAAA"
            + "AQAAAAEAAAAJAAAAZmlsZV9saXN0AAAAAAAAAA4AAABwAAAABgAAAAgAAAABAAAAAAAAAAUAAAAIAAAAAQAAAAEAAAABAAAAAAAA"
            + "AA4AAABAAAAABgAAAAgAAAAEAAAAAAAAAAUAAAAIAAAAAQAAAAoAAAABAAAAAAAAABAAAAAKAAAAMF9QYXJhZGVfMQAAAAAAAA4A"
            + "AADgAAAABgAAAAgAAAABAAAAAAAAAAUAAAAIAAAAAQAAAAEAAAABAAAADQAAAGZhY2VfYmJ4X2xpc3QAAAAOAAAAoAAAAAYAAAAI"
            + "AAAAAQAAAAAAAAAFAAAACAAAAAEAAAABAAAAAQAAAAAAAAAOAAAAcAAAAAYAAAAIAAAABgAAAAAAAAAFAAAACAAAAAIAAAAEAAAA"
            + "AQAAAAAAAAAJAAAAQAAAAAAAAAAAAPA/AAAAAAAAFEAAAAAAAAAAQAAAAAAAABhAAAAAAAAACEAAAAAAAAAcQAAAAAAAABBAAAAA"
            + "AAAAIEAOAAAAqAAAAAYAAAAIAAAAAQAAAAAAAAAFAAAACAAAAAEAAAAAAAAAAQAAAA8AAABibHVyX2xhYmVsX2xpc3QADgAAAGgA"
            + "AAAGAAAACAAAAAEAAAAAAAAABQAAAAgAAAABAAAAAQAAAAEAAAAAAAAADgAAADgAAAAGAAAACAAAAAwAAAAAAAAABQAAAAgAAAAC"
            + "AAAAAQAAAAH//////////wAAAAgAAAAAAAAAAQAAAA4AAACwAAAABgAAAAgAAAABAAAAAAAAAAUAAAAIAAAAAQAAAAEAAAABAAAA"
            + "FQAAAGV4cHJlc3Npb25fbGFiZWxfbGlzdAAAAA4AAABoAAAABgAAAAgAAAABAAAAAAAAAAUAAAAIAAAAAQAAAAEAAAABAAAAAAAA"
            + "AA4AAAA4AAAABgAAAAgAAAAMAAAAAAAAAAUAAAAIAAAAAgAAAAEAAAABAAAAAAAAAAUAAAAIAAAAAAAAAAEAAAAOAAAAsAAAAAYA"
            + "AAAIAAAAAQAAAAAAAAAFAAAACAAAAAEAAAABAAAAAQAAABcAAABpbGx1bWluYXRpb25fbGFiZWxfbGlzdAAOAAAAaAAAAAYAAAAI"
            + "AAAAAQAAAAAAAAAFAAAACAAAAAEAAAABAAAAAQAAAAAAAAAOAAAAOAAAAAYAAAAIAAAADAAAAAAAAAAFAAAACAAAAAIAAAABAAAA"
            + "AQAAAAAAAAAFAAAACAAAAAAAAAABAAAADgAAALAAAAAGAAAACAAAAAEAAAAAAAAABQAAAAgAAAABAAAAAQAAAAEAAAASAAAAaW52"
            + "YWxpZF9sYWJlbF9saXN0AAAAAAAADgAAAGgAAAAGAAAACAAAAAEAAAAAAAAABQAAAAgAAAABAAAAAQAAAAEAAAAAAAAADgAAADgA"
            + "AAAGAAAACAAAAAwAAAAAAAAABQAAAAgAAAACAAAAAQAAAAEAAAAAAAAABQAAAAgAAAAAAAAAAQAAAA4AAACwAAAABgAAAAgAAAAB"
            + "AAAAAAAAAAUAAAAIAAAAAQAAAAEAAAABAAAAFAAAAG9jY2x1c2lvbl9sYWJlbF9saXN0AAAAAA4AAABoAAAABgAAAAgAAAABAAAA"
            + "AAAAAAUAAAAIAAAAAQAAAAEAAAABAAAAAAAAAA4AAAA4AAAABgAAAAgAAAAMAAAAAAAAAAUAAAAIAAAAAgAAAAEAAAABAAAAAAAA"
            + "AAUAAAAIAAAAAAAAAAEAAAAOAAAAqAAAAAYAAAAIAAAAAQAAAAAAAAAFAAAACAAAAAEAAAABAAAAAQAAAA8AAABwb3NlX2xhYmVs"
            + "X2xpc3QADgAAAGgAAAAGAAAACAAAAAEAAAAAAAAABQAAAAgAAAABAAAAAQAAAAEAAAAAAAAADgAAADgAAAAGAAAACAAAAAwAAAAA"
            + "AAAABQAAAAgAAAACAAAAAQAAAAEAAAAAAAAABQAAAAgAAAAAAAAAAQAAAA=="
        let folder = try TestSupport.makeTemporaryDirectory("fuzz-wider-kit")
        let path = folder.appendingPathComponent(WiderKitGroundTruth.mainFile).path
        try Data(base64Encoded: base64)!.write(to: URL(fileURLWithPath: path))
        let text = message { _ = try WiderKitGroundTruth.load(folder: folder.path) }
        #expect(text.contains("'\(path)'") && !text.contains("\n"), "\(text)")
    }
}
