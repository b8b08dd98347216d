import Foundation
import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabElements
import FramelabEvaluation
import Testing

/// The official FDDB protocol on hand-made images whose pixel overlaps are worked out by
/// hand (boxes: a box of width w covers w + 1 pixel columns, as the program draws it), the
/// merge over images whose thresholds differ, the TPR at 1000 false positives, the ROC files,
/// and a real detector on the bundled sample.
@Suite struct FDDBProtocolTests {
    static func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, ignore: Bool = false) -> GroundTruthFace {
        GroundTruthFace(box: FaceBox(x: x, y: y, width: w, height: h), ignore: ignore)
    }
    static func detection(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ score: Double) -> FaceDetection {
        FaceDetection(box: BoundingBox(x: x, y: y, width: w, height: h), score: score)
    }

    /// Image A: F1 and F2 (100 px each); D1 = F1 (score 0.9); D2 covers half of F2 (50 px:
    /// IoU 0.5, not above it; score 0.5); D3 touches nothing (0.5).
    /// Image B: F3 (100 px); D4 covers F3 and 50 px more (IoU 2/3; score 0.7).
    /// Image C: F4, no detections (one result, all zero, at DBL_MAX).
    static let threeImages = [
        FDDBImage(width: 200, height: 200, faces: [face(0, 0, 9, 9), face(100, 100, 9, 9)],
                  detections: [detection(0, 0, 9, 9, 0.9), detection(100, 100, 9, 4, 0.5), detection(150, 150, 9, 9, 0.5)],
                  name: "A"),
        FDDBImage(width: 50, height: 50, faces: [face(0, 0, 9, 9)], detections: [detection(0, 0, 9, 14, 0.7)], name: "B"),
        FDDBImage(width: 30, height: 30, faces: [face(5, 5, 9, 9)], detections: [], name: "C"),
    ]

    @Test func threeImagesMergeOverTheUnionOfTheirThresholds() throws {
        let r = try FDDBProtocol.evaluate(Self.threeImages)
        #expect(r.faces == 4)
        // At 0.7 image A adds its counts at 0.9 (its smallest threshold >= 0.7: FP 0, not the
        // 2 it has at 0.5); at 0.9 image B adds nothing; at 0.5 B adds its counts at 0.7.
        #expect(r.discrete == [ROCPoint(threshold: .greatestFiniteMagnitude, falsePositives: 0, truePositiveRate: 0),
                               ROCPoint(threshold: 0.9, falsePositives: 0, truePositiveRate: 0.25),
                               ROCPoint(threshold: 0.7, falsePositives: 0, truePositiveRate: 0.5),
                               ROCPoint(threshold: 0.5, falsePositives: 2, truePositiveRate: 0.5)])
        #expect(r.continuous.map(\.threshold) == r.discrete.map(\.threshold))
        #expect(r.continuous.map(\.falsePositives) == r.discrete.map(\.falsePositives))
        let expected = [0, 1.0 / 4, (1 + 2.0 / 3) / 4, (1.5 + 2.0 / 3) / 4]
        for (point, value) in zip(r.continuous, expected) { #expect(abs(point.truePositiveRate - value) < 1e-12) }

        #expect(r.rocFileText(continuous: false) == "0.5 2 0.5\n0.5 0 0.7\n0.25 0 0.9\n0 0 1.79769e+308\n")
        #expect(r.rocFileText(continuous: true) == "0.541667 2\n0.416667 0\n0.25 0\n0 0\n")
        #expect(r.tprAt1000Discrete == 0.5 && abs(r.tprAt1000Continuous - 13.0 / 24) < 1e-12)

        // Images in another order give the same curves.
        let reversed = try FDDBProtocol.evaluate(Self.threeImages.reversed())
        #expect(reversed.discrete == r.discrete)
    }

    // Two 100 px-wide faces 40 px apart; A (0.9) at x = 24 overlaps face 0 by 76/124 and
    // face 1 by 84/116; B (0.5) at x = 50 overlaps face 1 by 90/110, face 0 by 50/150. Alone,
    // A pairs with face 1; once B is valid the largest total is A–face 0 plus B–face 1.
    @Test func aLowerThresholdCanChangeTheAssignment() throws {
        let image = FDDBImage(width: 200, height: 120, faces: [Self.face(0, 0, 99, 99), Self.face(40, 0, 99, 99)],
                              detections: [Self.detection(24, 0, 99, 99, 0.9), Self.detection(50, 0, 99, 99, 0.5)])
        let r = try FDDBProtocol.evaluate([image])
        #expect(r.discrete == [ROCPoint(threshold: 0.9, falsePositives: 0, truePositiveRate: 0.5),
                               ROCPoint(threshold: 0.5, falsePositives: 0, truePositiveRate: 1)])
        #expect(abs(r.continuous[0].truePositiveRate - (84.0 / 116) / 2) < 1e-12)
        #expect(abs(r.continuous[1].truePositiveRate - (76.0 / 124 + 90.0 / 110) / 2) < 1e-12)
    }

    @Test func facesAreTheirEllipsesWhenTheyHaveOne() throws {
        // The box says (0, 0, 5, 5); the ellipse, a circle of radius 10 at (50, 50), is drawn.
        var f = Self.face(0, 0, 5, 5)
        f.ellipse = FaceEllipse(majorRadius: 10, minorRadius: 10, angle: 0, centerX: 50, centerY: 50)
        let r = try FDDBProtocol.evaluate([FDDBImage(width: 100, height: 100, faces: [f],
                                                     detections: [Self.detection(40, 40, 20, 20, 1)])])
        #expect(r.discrete.map(\.truePositiveRate) == [1])
        #expect(r.continuous[0].truePositiveRate > 0.7 && r.continuous[0].truePositiveRate < 0.85)
    }

    /// Ignored faces are not counted; a detection on one (IoU above 0.5) is neither a true
    /// nor a false positive; one that covers it less is a false positive.
    @Test func ignoredFacesCountNeitherWay() throws {
        let image = FDDBImage(width: 100, height: 100,
                              faces: [Self.face(0, 0, 19, 19), Self.face(50, 50, 19, 19, ignore: true)],
                              detections: [Self.detection(0, 0, 19, 19, 0.9), Self.detection(50, 50, 19, 19, 0.8),
                                           Self.detection(80, 0, 9, 9, 0.7), Self.detection(50, 50, 19, 5, 0.6)])
        let r = try FDDBProtocol.evaluate([image])
        #expect(r.faces == 1)
        #expect(r.discrete.map(\.falsePositives) == [0, 0, 1, 2])
        #expect(r.discrete.map(\.truePositiveRate) == [1, 1, 1, 1])
    }

    @Test func withoutFacesEveryDetectionIsAFalsePositiveAndTheFilesSayZero() throws {
        let r = try FDDBProtocol.evaluate([FDDBImage(width: 40, height: 40, faces: [],
                                                     detections: [Self.detection(1, 1, 9, 9, 0.9), Self.detection(20, 1, 9, 9, 0.25)])])
        #expect(r.faces == 0 && r.discrete.map(\.falsePositives) == [1, 2])
        #expect(r.rocFileText(continuous: false) == "0 0 0.25\n0 0 0.9\n")
        #expect(r.rocFileText(continuous: true) == "0 0\n0 0\n")
        #expect(try FDDBProtocol.evaluate([]).discrete.isEmpty)
    }

    @Test func theTPRAt1000IsReadAtTheLargestCountNotAbove1000() {
        let curve = [ROCPoint(threshold: 5, falsePositives: 0, truePositiveRate: 0.1),
                     ROCPoint(threshold: 4, falsePositives: 999, truePositiveRate: 0.5),
                     ROCPoint(threshold: 3, falsePositives: 1000, truePositiveRate: 0.6),
                     ROCPoint(threshold: 2, falsePositives: 1000, truePositiveRate: 0.62),
                     ROCPoint(threshold: 1, falsePositives: 1001, truePositiveRate: 0.9)]
        #expect(FDDBProtocolResult.truePositiveRate(curve, atFalsePositives: 1000) == 0.62)
        #expect(FDDBProtocolResult.truePositiveRate(curve, atFalsePositives: 999) == 0.5)
        #expect(FDDBProtocolResult.truePositiveRate(Array(curve.suffix(1)), atFalsePositives: 1000) == 0)
        let result = FDDBProtocolResult(faces: 10, discrete: curve, continuous: curve.map {
            ROCPoint(threshold: $0.threshold, falsePositives: $0.falsePositives, truePositiveRate: $0.truePositiveRate / 2)
        })
        #expect(result.tprAt1000Discrete == 0.62 && result.tprAt1000Continuous == 0.31)
        // The program keeps FP in a double and prints it as C++ streams do.
        let many = FDDBProtocolResult(faces: 3, discrete: [ROCPoint(threshold: 0.125, falsePositives: 1_234_567, truePositiveRate: 2.0 / 3)],
                                      continuous: [ROCPoint(threshold: 0.125, falsePositives: 999_999, truePositiveRate: 1)])
        #expect(many.rocFileText(continuous: false) == "0.666667 1.23457e+06 0.125\n")
        #expect(many.rocFileText(continuous: true) == "1 999999\n")
    }

    @Test func badDetectionsAreErrorsNamingTheImage() {
        for bad in [Self.detection(0, 0, 5, 5, .nan), Self.detection(.infinity, 0, 5, 5, 1)] {
            do {
                _ = try FDDBProtocol.evaluate([FDDBImage(width: 10, height: 10, faces: [], detections: [bad], name: "2002/08/11/big/img_591")])
                Issue.record("accepted \(bad)")
            } catch let e as FramelabError {
                #expect(e.kind == .badInput && e.message.contains("img_591"), "\(e.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func theROCFilesAreWrittenAndAnUnwritablePathIsAnError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fl-fddb-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try FDDBProtocol.evaluate(Self.threeImages)
        let disc = dir.appendingPathComponent("tempDiscROC.txt").path, cont = dir.appendingPathComponent("tempContROC.txt").path
        try r.write(discROC: disc, contROC: cont)
        #expect(try String(contentsOfFile: disc, encoding: .utf8) == r.rocFileText(continuous: false))
        #expect(try String(contentsOfFile: cont, encoding: .utf8) == r.rocFileText(continuous: true))
        do {
            try r.write(discROC: dir.appendingPathComponent("no/such/DiscROC.txt").path, contROC: cont)
            Issue.record("wrote into a missing directory")
        } catch let e as FramelabError {
            #expect(e.kind == .io && e.message.contains("no/such/DiscROC.txt"), "\(e.message)")
        }
    }

    @Test func imageSizesComeFromHeadersOrTheExtentOfTheRegions() throws {
        let astronaut = DatasetEvaluatorTests.root.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let faces = [Self.face(10, 10, 30, 40)]
        let read = try FDDBImage(annotated: AnnotatedImage(path: astronaut, name: "astronaut", faces: faces), detections: [])
        #expect(read.width == 512 && read.height == 512)
        let missing = try FDDBImage(annotated: AnnotatedImage(path: "/nonexistent/x.jpg", name: "x", faces: faces),
                                    detections: [Self.detection(100, 0, 10, 10, 1)])
        #expect(missing.width == 112 && missing.height == 52)
        var f = Self.face(0, 0, 1, 1)
        f.ellipse = FaceEllipse(majorRadius: 20, minorRadius: 10, angle: .pi / 2, centerX: 30, centerY: 40)
        #expect(try FDDBImage.extent(faces: [f], detections: []) == (42, 62))
        #expect(throws: FramelabError.self) { _ = try FDDBImage.extent(faces: [], detections: [Self.detection(0, 0, .infinity, 1, 1)]) }
    }

    /// FDDB's own annotation lines (the loader's fixture; its photos are not there, so sizes
    /// come from the regions' extent): each face found by the box around its ellipse overlaps
    /// it by about the ellipse's share of that box, pi a b / (4 hx hy).
    @Test func fddbEllipsesAgainstTheBoxesAroundThem() throws {
        let root = DatasetEvaluatorTests.root.appendingPathComponent("Tests/FramelabDatasetsTests/Fixtures/fddb").path
        let dataset = try FaceDataset.load("fddb:" + root)
        var expected = 0.0
        let images = try dataset.images.map { image in
            for face in image.faces {
                let e = try #require(face.ellipse)
                expected += .pi * e.majorRadius * e.minorRadius / (face.box.width * face.box.height)
            }
            let boxes = image.faces.map {
                FaceDetection(box: BoundingBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height), score: 1)
            }
            return try FDDBImage(annotated: image, detections: boxes)
        }
        let r = try FDDBProtocol.evaluate(images)
        #expect(r.faces == dataset.faceCount && r.faces > 3)
        #expect(r.discrete.last == ROCPoint(threshold: 1, falsePositives: 0, truePositiveRate: 1))
        let continuous = try #require(r.continuous.last).truePositiveRate
        #expect(abs(continuous - expected / Double(r.faces)) < 0.03, "\(continuous) vs \(expected / Double(r.faces))")
    }

    /// OpenCV's Haar cascade on the bundled sample, through the same evaluator `eval` uses.
    @Test func theSampleWithOpenCVsHaarCascade() throws {
        let dataset = try FaceDataset.load("csv:" + DatasetEvaluatorTests.sample)
        let run = try DatasetEvaluator(dataset: dataset, detectors: [try ElementSpec(parsing: "opencv-haar")]).run()
        let images = try FDDBImage.images(dataset: dataset, frames: run.frames[0])
        #expect(images.count == dataset.images.count)
        let r = try FDDBProtocol.evaluate(images)
        #expect(r.faces == dataset.faceCount && !r.discrete.isEmpty)
        for curve in [r.discrete, r.continuous] {
            #expect(zip(curve, curve.dropFirst()).allSatisfy { $0.threshold > $1.threshold && $0.falsePositives <= $1.falsePositives })
            #expect(zip(curve, curve.dropFirst()).allSatisfy { $0.truePositiveRate <= $1.truePositiveRate + 1e-12 })
            #expect(curve.allSatisfy { (0...1).contains($0.truePositiveRate) })
        }
        #expect(r.tprAt1000Discrete >= 0.5 && r.tprAt1000Discrete <= 1)
        #expect(r.tprAt1000Continuous > 0 && r.tprAt1000Continuous <= 1)
        // The lowest threshold counts every box: its false positives are the boxes that are
        // not discrete true positives.
        let boxes = run.frames[0].reduce(0) { $0 + $1.detections.count }
        let last = try #require(r.discrete.last)
        #expect(last.falsePositives == boxes - Int((last.truePositiveRate * Double(r.faces)).rounded()))
    }
}
