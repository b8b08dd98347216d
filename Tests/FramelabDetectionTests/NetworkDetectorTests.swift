import Foundation
import FramelabCore
import FramelabCV
@testable import FramelabDetection
import FramelabElements
import FramelabTestSupport
import Testing

/// The built-in network detectors (opencv-ssd, centerface, mtcnn) on real photos with the
/// real models of Datasets/models (scripts/fetch-models.sh).
@Suite struct NetworkDetectorTests {
    static let images = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path
    static let names = ["opencv-ssd", "centerface", "mtcnn"]

    /// The astronaut's hand-checked box, read from Datasets/sample/faces.csv.
    static func astronautBox() throws -> BoundingBox {
        let csv = try String(contentsOfFile: TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path,
                             encoding: .utf8)
        let line = try #require(csv.split(whereSeparator: \.isNewline).first { $0.hasPrefix("images/astronaut.png,") })
        let v = line.split(separator: ",").dropFirst().compactMap { Double($0) }
        try #require(v.count == 4)
        return BoundingBox(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    static func detector(_ text: String) throws -> any FaceDetector {
        try DetectorRegistry.builtIns.instantiate(try ElementSpec(parsing: text))
    }

    static func read(_ name: String, as format: PixelFormat = .bgra8) throws -> Mat {
        try ImageCodec.read(images + "/" + name, as: format)
    }

    @Test func defaultModelsAreTheCheckoutsDatasetsModels() throws {
        guard ProcessInfo.processInfo.environment["FRAMELAB_MODELS"] == nil else { return }
        let expected = TestSupport.packageRoot.appendingPathComponent("Datasets/models").resolvingSymlinksInPath().path
        #expect(URL(fileURLWithPath: ModelFiles.directory).resolvingSymlinksInPath().path == expected)
        for name in Self.names {
            let d = try DetectorRegistry.builtIns.descriptor(for: ElementSpec(name: name))
            #expect(d.missingDefaultModelFiles == [], "\(name)")
        }
    }

    @Test(arguments: names, [PixelFormat.bgra8, .bgr8])
    func findsTheAstronautsOneFaceWithLandmarksInPlace(name: String, format: PixelFormat) throws {
        let truth = try Self.astronautBox()
        let faces = try Self.detector(name).detect(try Self.read("astronaut.png", as: format))
        #expect(faces.count == 1, "\(name): \(faces)")
        let face = try #require(faces.first)
        #expect(face.box.iou(truth) >= 0.5, "\(name): \(face.box) vs \(truth)")
        guard name != "opencv-ssd" else {
            #expect(face.leftEye == nil && face.mouth == nil)
            return
        }
        let left = try #require(face.leftEye), right = try #require(face.rightEye), mouth = try #require(face.mouth)
        for p in [left, right, mouth] {
            #expect(p.x > face.box.x && p.x < face.box.maxX && p.y > face.box.y && p.y < face.box.maxY, "\(name): \(p)")
        }
        #expect(left.y < mouth.y && right.y < mouth.y, "\(name): eyes above the mouth")
        // The person's left eye is on the image's right for a frontal face.
        #expect(left.x > right.x, "\(name): left eye \(left), right eye \(right)")
    }

    @Test(arguments: names)
    func lowAccuracyAlsoFindsTheAstronautAndGrayInputWorks(name: String) throws {
        let truth = try Self.astronautBox()
        let low = try Self.detector(name + ":accuracy=low").detect(try Self.read("astronaut.png"))
        #expect(low.contains { $0.box.iou(truth) >= 0.5 }, "\(name) low: \(low)")
        let gray = try Self.detector(name).detect(try Self.read("astronaut.png", as: .gray8))
        #expect(gray.contains { $0.box.iou(truth) >= 0.5 }, "\(name) gray: \(gray)")
    }

    @Test func presetsMapToTheirKnobsAndExplicitKnobsWin() throws {
        func parameters(_ text: String) throws -> DetectorParameters {
            let spec = try ElementSpec(parsing: text)
            return try DetectorRegistry.builtIns.descriptor(for: spec).parameters(for: spec)
        }
        #expect(OpenCVSSDDetector.Settings(try parameters("opencv-ssd")).inputSize == 300)
        #expect(OpenCVSSDDetector.Settings(try parameters("opencv-ssd:accuracy=low")).inputSize == 160)
        #expect(OpenCVSSDDetector.Settings(try parameters("opencv-ssd:accuracy=low,input-size=400")).inputSize == 400)
        #expect(CenterFaceDetector.Settings(try parameters("centerface")).inputSize == 0)
        #expect(CenterFaceDetector.Settings(try parameters("centerface:accuracy=low")).inputSize == 320)
        #expect(MTCNNDetector.Settings(try parameters("mtcnn")).minSize == 20)
        #expect(MTCNNDetector.Settings(try parameters("mtcnn:accuracy=low")).minSize == 40)
        #expect(MTCNNDetector.Settings(try parameters("mtcnn:accuracy=low,min-size=30")).minSize == 30)
        for bad in ["opencv-ssd:input-size=5000", "centerface:score=2", "mtcnn:min-size=4", "mtcnn:factor=1"] {
            #expect(throws: FramelabError.self, "\(bad)") { _ = try parameters(bad) }
        }
    }

    @Test func centerFaceInputIsRoundedToMultiplesOf32() throws {
        let d = try CenterFaceDetector(modelPath: ModelFiles.path("centerface.onnx"))
        #expect(d.inputSize(width: 548, height: 342) == (width: 576, height: 352))
        #expect(d.inputSize(width: 1, height: 100_000) == (width: 32, height: 2048))
        let low = try CenterFaceDetector(modelPath: ModelFiles.path("centerface.onnx"),
                                         settings: .init(inputSize: 320))
        #expect(low.inputSize(width: 1280, height: 886) == (width: 320, height: 224))
    }

    /// The same faces up to float rounding (a net reloaded without fusion sums in another order).
    static func same(_ a: [FaceDetection], _ b: [FaceDetection]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            abs(x.score - y.score) < 1e-3 && x.box.iou(y.box) > 0.99
        }
    }

    /// OpenCV 4.6 re-fuses BatchNorm into the convolutions when the input size changes; the
    /// bridge reloads the net unfused then. Before that fix CenterFace found 190 "faces" in a
    /// brick wall after one larger photo.
    @Test func aNetGivesTheSameAnswerAfterAnImageOfAnotherSize() throws {
        let brick = try Self.read("brick.png"), astronaut = try Self.read("astronaut.png"), group = try Self.read("t1.jpg")
        for name in ["centerface", "mtcnn"] {
            let fresh = try Self.detector(name)
            let before = (try fresh.detect(brick), try fresh.detect(astronaut))
            let used = try Self.detector(name)
            _ = try used.detect(group)
            let after = (try used.detect(brick), try used.detect(astronaut))
            #expect(Self.same(after.0, before.0), "\(name) on brick: \(after.0) vs \(before.0)")
            #expect(Self.same(after.1, before.1), "\(name) on astronaut: \(after.1) vs \(before.1)")
            #expect(before.0.isEmpty, "\(name): no face in a brick wall: \(before.0)")
        }
    }

    @Test func findsFacesInAGroupPhoto() throws {
        let group = try Self.read("t1.jpg")
        for name in Self.names {
            let faces = try Self.detector(name).detect(group)
            #expect(faces.count >= 4, "\(name): \(faces.count) faces in t1.jpg")
        }
    }
}
