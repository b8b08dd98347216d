import Foundation
import FramelabCore
import FramelabCV
import FramelabDetection
import FramelabElements
import FramelabTestSupport
import Testing

@Suite struct DetectorRegistryTests {
    static let sample = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path

    func parameters(_ text: String) throws -> DetectorParameters {
        let spec = try ElementSpec(parsing: text)
        return try DetectorRegistry.builtIns.descriptor(for: spec).parameters(for: spec)
    }

    @Test func presetsMapToDocumentedKnobsAndExplicitKnobsWin() throws {
        #expect(SlidingWindowSettings(try parameters("opencv-haar:accuracy=low"))
            == SlidingWindowSettings(scaleFactor: 1.25, minNeighbours: 3, minSize: 40))
        #expect(SlidingWindowSettings(try parameters("cascade"))
            == SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 3, minSize: 24))
        #expect(SlidingWindowSettings(try parameters("cascade:accuracy=low,min-size=60,max-size=300"))
            == SlidingWindowSettings(scaleFactor: 1.25, minNeighbours: 3, minSize: 60, maxSize: 300))
    }

    @Test func badParametersNameTheDetector() throws {
        for text in ["opencv-haar:scale=0.9", "cascade:accuracy=medium", "opencv-lbp:bogus=1", "cascade:neighbours=x"] {
            do {
                _ = try DetectorRegistry.builtIns.instantiate(try ElementSpec(parsing: text))
                Issue.record("\(text) was accepted")
            } catch let e as FramelabError {
                #expect(e.message.hasPrefix("detector '"), "\(e.message)")
            }
        }
        #expect(throws: FramelabError.self) { _ = try DetectorRegistry.builtIns.instantiate(ElementSpec(name: "nope")) }
    }

    @Test func lowAccuracyIsFasterAndFindsTheAstronaut() throws {
        let image = try ImageCodec.read(Self.sample + "/astronaut.png")
        for name in ["opencv-haar", "opencv-lbp", "cascade"] {
            let found = try DetectorRegistry.builtIns.instantiate(try ElementSpec(parsing: name + ":accuracy=low")).detect(image)
            let face = BoundingBox(x: 180, y: 70, width: 90, height: 100)
            #expect(found.contains { $0.box.iou(face) >= 0.5 }, "\(name): \(found)")
        }
    }

    @Test(arguments: ["opencv-haar", "cascade"])
    func landmarksPutEyesAboveTheMouthOnTheRightSides(name: String) throws {
        let image = try ImageCodec.read(Self.sample + "/astronaut.png")
        let found = try DetectorRegistry.builtIns.instantiate(try ElementSpec(parsing: name + ":landmarks=true")).detect(image)
        let face = try #require(found.first { $0.box.iou(BoundingBox(x: 180, y: 70, width: 90, height: 100)) >= 0.5 })
        let left = try #require(face.leftEye), right = try #require(face.rightEye)
        // The person's left eye is on the image's right.
        #expect(left.x > right.x)
        #expect(left.y < face.box.center.y && right.y < face.box.center.y)
        if let mouth = face.mouth {
            #expect(mouth.y > face.box.center.y && mouth.x > right.x && mouth.x < left.x)
        }
    }

    @Test func yunetWithoutAModelSaysWhatToPass() {
        do {
            _ = try DetectorRegistry.builtIns.instantiate(try ElementSpec(parsing: "opencv-yunet"))
            Issue.record("accepted without a model")
        } catch let e as FramelabError {
            #expect(e.message.contains("model=PATH"))
        } catch { Issue.record("\(error)") }
    }
}
