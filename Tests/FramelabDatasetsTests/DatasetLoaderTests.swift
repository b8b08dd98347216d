import Foundation
import FramelabCore
import FramelabDatasets
import FramelabTestSupport
import Testing

/// Each loader on small fixture files, including malformed lines.
@Suite struct DatasetLoaderTests {
    static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/FramelabDatasetsTests/Fixtures").path
    static func fixture(_ name: String) -> String { (fixtures as NSString).appendingPathComponent(name) }

    /// The error `body` throws, as text (fails the test when it does not throw).
    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let e as FramelabError { return e.message } catch { return "\(error)" }
        Issue.record("expected an error")
        return ""
    }

    @Test func widerKeepsFlagsAndMarksInvalidFacesIgnored() throws {
        let d = try FaceDataset.load("wider:" + Self.fixture("wider_face_val_bbx_gt.txt"))
        #expect(d.images.map(\.name) == ["0--Parade/0_Parade_marchingband_1_849.jpg", "0--Parade/0_Parade_Parade_0_904.jpg",
                                          "1--Handshaking/1_Handshaking_0_1.jpg"])
        #expect(d.images[0].faces[0].box == FaceBox(x: 449, y: 330, width: 122, height: 149))
        #expect(d.images[1].faces[0].wider == WiderFlags(blur: 2, expression: 1, illumination: 0, invalid: 0, occlusion: 1, pose: 0))
        #expect(d.images[1].faces[1].ignore)
        #expect(d.images[1].faces[1].wider?.occlusion == 2)
        #expect(d.images[2].faces.isEmpty)
        #expect(d.faceCount == 2)
        #expect(d.images[0].path.hasSuffix("WIDER_val/images/0--Parade/0_Parade_marchingband_1_849.jpg"))
    }

    @Test func widerMalformedLineIsNamed() {
        let file = Self.fixture("wider_malformed_gt.txt")
        let m = message { _ = try FaceDataset.load("wider:" + file) }
        #expect(m.contains(file) && m.contains("line 6"))
    }

    @Test func fddbReadsEveryFoldAndEllipses() throws {
        let d = try FaceDataset.load("fddb:" + Self.fixture("fddb"))
        #expect(d.images.count == 3)
        #expect(d.images[1].faces.count == 3)
        let e = try #require(d.images[0].faces[0].ellipse)
        #expect(e.centerX == 269.6934)
        // The box encloses the ellipse and is centred on it.
        let b = d.images[0].faces[0].box
        #expect(abs(b.x + b.width / 2 - e.centerX) < 1e-9 && abs(b.y + b.height / 2 - e.centerY) < 1e-9)
        #expect(b.width >= 2 * e.minorRadius && b.height <= 2 * e.majorRadius + 1e-9)
        #expect(d.images[0].path.hasSuffix("fddb/originalPics/2002/08/11/big/img_591.jpg"))
        // One fold through its fold list.
        let one = try FaceDataset.load("fddb:" + Self.fixture("fddb/FDDB-folds/FDDB-fold-01.txt"))
        #expect(one.images.count == 2)
    }

    @Test func fddbMalformedLineIsNamed() {
        let m = message { _ = try FaceDataset.load("fddb:" + Self.fixture("fddb-bad")) }
        #expect(m.contains("FDDB-fold-01-ellipseList.txt") && m.contains("line 4") && m.contains("abc"))
    }

    @Test func dlibPathsAreRelativeToTheXML() throws {
        let d = try FaceDataset.load("dlib:" + Self.fixture("faces.xml"))
        #expect(d.images.count == 3)
        #expect(d.images[0].path == Self.fixture("2008_002470.jpg"))
        #expect(d.images[1].path == Self.fixture("sub/2009_004587.jpg"))
        #expect(d.images[0].faces[0].box == FaceBox(x: 274, y: 181, width: 52, height: 53))
        #expect(d.images[0].faces[1].ignore)
        #expect(d.images[2].faces.isEmpty)
        #expect(d.faceCount == 2)
    }

    @Test func dlibMalformedBoxIsNamed() {
        let file = Self.fixture("faces-bad.xml")
        let m = message { _ = try FaceDataset.load("dlib:" + file) }
        #expect(m.contains(file) && m.contains("line 8") && m.contains("width"))
    }

    /// A file cut anywhere inside, unclosed elements and content after the root used to
    /// load (a cut file as "2 images, 1 faces").
    @Test func malformedDlibXMLIsRejectedNamingFileAndLine() throws {
        let text = try String(contentsOfFile: Self.fixture("faces.xml"), encoding: .isoLatin1)
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("cut.xml").path
        func load(_ xml: String) -> String {
            try? Data(xml.utf8).write(to: URL(fileURLWithPath: path))
            return message { _ = try FaceDataset.load("dlib:" + path) }
        }
        // Cut at every character after the root opens: never a dataset.
        let rootStart = text.range(of: "<dataset>")!.upperBound
        for cut in stride(from: text.distance(from: text.startIndex, to: rootStart), to: text.count - 2, by: 7) {
            let m = load(String(text.prefix(cut)))
            #expect(m.contains(path) && m.contains(" line ") && !m.contains("\n"), "cut at \(cut): \(m)")
        }
        let unclosed = load("<dataset><images>\n<image file='a.jpg'>\n<box top='1' left='2' width='3' height='4'/>\n</images></dataset>\n")
        #expect(unclosed.contains(path) && unclosed.contains("line"), "\(unclosed)")
        let trailing = load(text + "<dataset><images></images></dataset>\n")
        #expect(trailing.contains(path) && trailing.contains("line 17"), "\(trailing)")
        let garbage = load(text + "garbage\n")
        #expect(garbage.contains(path) && garbage.contains("line"), "\(garbage)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try FaceDataset.load("dlib:" + path).images.count == 3)
    }

    @Test func csvGroupsRowsByImage() throws {
        let d = try FaceDataset.load("csv:" + Self.fixture("faces.csv"))
        #expect(d.images.map(\.name) == ["a.png", "b.png"])
        #expect(d.images[0].faces.count == 2 && d.images[1].faces.isEmpty)
        #expect(d.images[0].faces[1].box == FaceBox(x: 50, y: 60, width: 70, height: 80))
    }

    @Test func csvMalformedLineIsNamed() {
        let file = Self.fixture("faces-bad.csv")
        let m = message { _ = try FaceDataset.load("csv:" + file) }
        #expect(m.contains(file) && m.contains("line 3") && m.contains("twenty"))
    }

    @Test func unknownFormatAndMissingFiles() {
        #expect(message { _ = try FaceDataset.load("voc:/x") }.contains("FORMAT"))
        #expect(message { _ = try FaceDataset.load("csv:/nonexistent/faces.csv") }.contains("/nonexistent/faces.csv"))
        #expect(message { _ = try FaceDataset.load("wider:/nonexistent") }.contains("/nonexistent"))
    }

    /// A fixture rewritten with other line endings into a temporary folder, under `name`.
    func rewritten(_ fixture: String, ending: String, as name: String? = nil) throws -> String {
        let text = try String(contentsOfFile: Self.fixture(fixture), encoding: .utf8)
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent(name ?? (fixture as NSString).lastPathComponent).path
        try Data(text.replacingOccurrences(of: "\n", with: ending).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// "\r\n" is one Character in Swift: a split on "\n" made a Windows file one line.
    @Test(arguments: ["\r\n", "\r"]) func windowsAndOldMacLineEndingsLoad(ending: String) throws {
        let csv = try FaceDataset.load("csv:" + rewritten("faces.csv", ending: ending))
        #expect(csv.images.map(\.name) == ["a.png", "b.png"] && csv.faceCount == 2)
        let wider = try FaceDataset.load("wider:" + rewritten("wider_face_val_bbx_gt.txt", ending: ending))
        #expect(wider.images.count == 3 && wider.faceCount == 2)
        #expect(wider.images[1].faces[0].wider == WiderFlags(blur: 2, expression: 1, illumination: 0, invalid: 0, occlusion: 1, pose: 0))
        let fddb = try FaceDataset.load("fddb:" + rewritten("fddb/FDDB-folds/FDDB-fold-01-ellipseList.txt", ending: ending))
        #expect(fddb.images.count == 2 && fddb.images.allSatisfy { !$0.name.contains("\r") })
    }

    /// An error quotes at most one line of the file, shortened, with no line breaks.
    @Test func errorsQuoteOneShortLine() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("long.csv").path
        let row = "a.png,1,2,3,four" + String(repeating: "x", count: 500)
        try Data(("image,x,y,width,height\r\n" + row + "\r\n" + row + "\r\n").utf8).write(to: URL(fileURLWithPath: path))
        let m = message { _ = try FaceDataset.load("csv:" + path) }
        #expect(m.contains(path) && m.contains("line 2") && m.contains("…"))
        #expect(!m.contains("\n") && !m.contains("\r") && m.count < path.count + 200, "\(m)")
        let separator = dir.appendingPathComponent("separator.csv").path
        try Data("image,x,y,width,height\na.png,1,2,3,4\u{2028}5\n".utf8).write(to: URL(fileURLWithPath: separator))
        let escaped = message { _ = try FaceDataset.load("csv:" + separator) }
        #expect(escaped.contains("line 2") && escaped.contains("\\u{2028}") && !escaped.contains("\u{2028}"), "\(escaped)")
    }

    /// A flag of 1e300 used to trap converting it to Int.
    @Test func widerFlagsThatAreNotIntegersAreNamed() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("wider_face_val_bbx_gt.txt").path
        try Data("a.jpg\n1\n1 2 3 4 0 0 0 1e300 0 0\n".utf8).write(to: URL(fileURLWithPath: path))
        let m = message { _ = try FaceDataset.load("wider:" + path) }
        #expect(m.contains(path) && m.contains("line 3") && m.contains("1e+300"), "\(m)")
        try Data("a.jpg\n1\n1 2 3 4 0 0 0 0.5 0 0\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(message { _ = try FaceDataset.load("wider:" + path) }.contains("not an integer"))
    }

    @Test func bundledSampleLoads() throws {
        let csv = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
        let d = try FaceDataset.load("csv:" + csv)
        #expect(d.images.count >= 7 && d.faceCount >= 10)
        for image in d.images { #expect(FileManager.default.fileExists(atPath: image.path), "\(image.path)") }
    }
}
