import Foundation
import FramelabCore
import FramelabCV
import FramelabDetection
import FramelabTestSupport
import Testing

/// Framelab's cascade against OpenCV's CascadeClassifier on the same photographs,
/// the same XML and the same parameters.
@Suite struct HaarCascadeEvaluatorTests {
    static let sample = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path

    static func photo(_ name: String) throws -> Mat {
        try ImageCodec.read((sample as NSString).appendingPathComponent(name), as: .gray8)
    }

    static let settings = SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 3, minSize: 24)

    @Test(arguments: ["haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt2.xml"])
    func findsTheSameFacesAsOpenCV(xml: String) throws {
        let path = CascadeFiles.path("haarcascades/" + xml)
        let ours = try HaarCascadeEvaluator(path: path)
        let theirs = try CascadeClassifier(path: path)
        var matched = 0, total = 0
        for name in ["astronaut.png", "t1.jpg", "messi5.jpg"] {
            let image = try Self.photo(name)
            let a = try ours.detect(image, settings: Self.settings)
            let b = try theirs.detect(image, scaleFactor: 1.1, minNeighbours: 3, minSize: 24)
            total += b.count
            for box in b {
                let ob = BoundingBox(x: box.x, y: box.y, width: box.width, height: box.height)
                if a.contains(where: { $0.box.iou(ob) >= 0.8 }) { matched += 1 }
            }
            print("\(xml) \(name): opencv \(b.count) boxes, cascade \(a.count)")
        }
        #expect(total > 0)
        #expect(Double(matched) >= 0.98 * Double(total), "matched \(matched) of \(total)")
    }

    @Test func rawWindowsEqualOpenCVsUngroupedWindows() throws {
        // neighbours=0 turns grouping off in both: every window that passes all stages.
        let path = CascadeFiles.haarFrontalFace
        let image = try Self.photo("astronaut.png")
        let s = SlidingWindowSettings(scaleFactor: 1.2, minNeighbours: 0, minSize: 24)
        let ours = Set(try HaarCascadeEvaluator(path: path).rawWindows(image, settings: s))
        let theirs = Set(try CascadeClassifier(path: path).detect(image, scaleFactor: 1.2, minNeighbours: 0, minSize: 24)
            .map { IntRect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) })
        #expect(!theirs.isEmpty)
        let common = ours.intersection(theirs).count
        print("raw windows: ours \(ours.count), opencv \(theirs.count), common \(common)")
        #expect(Double(common) >= 0.98 * Double(theirs.count))
    }

    @Test func aFileThatIsNotACascadeIsAnErrorNamingIt() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let bogus = dir.appendingPathComponent("faces.xml").path
        try "<?xml version=\"1.0\"?><images><image file=\"a.jpg\"/></images>".write(toFile: bogus, atomically: true, encoding: .utf8)
        #expect(throws: FramelabError.self) { try HaarCascade(contentsOf: bogus) }
        do { _ = try HaarCascade(contentsOf: bogus) } catch let e as FramelabError { #expect(e.message.contains(bogus)) }
        do { _ = try CascadeClassifier(path: bogus) } catch let e as FramelabError { #expect(e.message.contains(bogus)) }
        let lbp = CascadeFiles.lbpFrontalFace
        do { _ = try HaarCascade(contentsOf: lbp); Issue.record("LBP accepted") } catch let e as FramelabError {
            #expect(e.message.contains("LBP"))
        }
    }
}
