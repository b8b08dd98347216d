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

    @Test func bundledSampleLoads() throws {
        let csv = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
        let d = try FaceDataset.load("csv:" + csv)
        #expect(d.images.count >= 7 && d.faceCount >= 10)
        for image in d.images { #expect(FileManager.default.fileExists(atPath: image.path), "\(image.path)") }
    }
}
