import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import Testing

/// Each rule of the WIDER kit's evaluation, (a) to (g), on small cases computed by hand.
@Suite struct WiderProtocolTests {
    /// A 10×10 face (corners x…x+10 with the kit's +1: 11 pixels a side) kept by `subsets`.
    func face(_ x: Double, _ y: Double = 0, _ subsets: WiderSubsets? = [.easy, .medium, .hard], ignore: Bool = false) -> GroundTruthFace {
        GroundTruthFace(box: FaceBox(x: x, y: y, width: 10, height: 10), ignore: ignore, widerSubsets: subsets)
    }
    func det(_ x: Double, _ score: Double, _ y: Double = 0) -> FaceDetection {
        FaceDetection(box: BoundingBox(x: x, y: y, width: 10, height: 10), score: score)
    }
    func point(_ s: ProtocolScores, _ curve: ProtocolCurveName, t: Int) -> ProtocolCurvePoint {
        s.curve(curve)!.points[t - 1]
    }

    @Test func aPredictionsAreSortedByScoreStably() {
        let sorted = WiderProtocol.normalisedAndSorted([[det(0, 0.5), det(20, 0.9), det(40, 0.5), det(60, 0.7)]])
        #expect(sorted[0].map(\.box.x) == [20, 60, 0, 40])
        // The order decides who takes a face: the 0.9 prediction takes it, the earlier 0.5 one is left false.
        let s = WiderProtocol.evaluate(faces: [[face(0)]], predictions: [[det(0, 0.5), det(0, 0.9)]])
        // At th = 0.5 (t = 500) only the 0.9 one (normalised 1) is in: 1 proposal, 1 match.
        #expect(point(s, .widerEasy, t: 500) == ProtocolCurvePoint(threshold: 0.5, x: 1, y: 1))
        #expect(point(s, .widerEasy, t: 1000).y == 0.5)
    }

    @Test func bScoresAreNormalisedOverTheWholeSetFromZeroAndOne() {
        func scores(_ s: [[Double]]) -> [[Double]] {
            WiderProtocol.normalisedAndSorted(s.map { $0.map { det(0, $0) } }).map { $0.map(\.score) }
        }
        // max = max(0, 4) = 4, min = min(1, 2) = 1, across images.
        #expect(scores([[2], [4]]) == [[1.0 / 3], [1]])
        #expect(scores([[0.25], [0.75, 0.5]]) == [[0], [1, 0.5]])
        // All negative: max stays 0.
        #expect(scores([[-1, -3]]) == [[2.0 / 3, 0]])
        // One score in [0, 1] everywhere: 0/0, which passes no threshold (AP 0, as in the kit).
        #expect(scores([[0.5, 0.5]])[0].allSatisfy { $0.isNaN })
        let flat = WiderProtocol.evaluate(faces: [[face(0)]], predictions: [[det(0, 0.5)]])
        #expect(flat.metric("ap_easy") == 0)
    }

    @Test func cOverlapUsesCornersAndThePlusOnePixelConvention() {
        func iou(_ px: Double, _ fx: Double) -> Double { WiderProtocol.iou(det(px, 1).box, face(fx).box) }
        #expect(iou(0, 0) == 1)
        // Corners 0…10 and 5…15: intersection 6×11, areas 11×11.
        #expect(iou(0, 5) == 66.0 / (121 + 121 - 66))
        // Sharing the column x = 10: one pixel wide, 11 high.
        #expect(iou(0, 10) == 11.0 / (121 + 121 - 11))
        #expect(iou(0, 11) == 0)
        #expect(iou(0, 40) == 0)
    }

    @Test func dEachPredictionTakesItsBestFaceWithNoSecondChoice() {
        // Face 0 kept by easy; face 1 (x = 2, overlapping face 0 too) kept by hard only.
        let faces = [face(0, 0, [.easy, .medium, .hard]), face(2, 0, [.hard]), face(100, 0, [.easy, .medium, .hard])]
        let predictions = [det(2, 0.9),   // best: face 1 — ignored in easy/medium, a match in hard
                           det(0, 0.8),   // best: face 0 — a match
                           det(0, 0.7),   // best: face 0 again — false positive, though face 1 is free in hard
                           det(100, 0.6)] // face 2 — a match
        let image = [faces]
        let s = WiderProtocol.evaluate(faces: image, predictions: [predictions])
        // Normalised: hi 0.9, lo 0.6 → 1, 2/3, 1/3, 0. At th = 0 (t = 1000) all are in.
        let easy = point(s, .widerEasy, t: 1000), hard = point(s, .widerHard, t: 1000)
        #expect(easy.y == 2.0 / 3 && easy.x == 1)   // 3 counted (the first is ignored), 2 matched of 2
        #expect(hard.y == 3.0 / 4 && hard.x == 1)   // 4 counted, 3 matched of 3
        // After the first prediction alone (th = 0.999): easy has nothing counted yet (0/0), hard 1 of 1.
        #expect(point(s, .widerEasy, t: 1).y.isNaN && point(s, .widerEasy, t: 1).x == 0)
        #expect(point(s, .widerHard, t: 1) == ProtocolCurvePoint(threshold: 0.999, x: 1.0 / 3, y: 1))
        // Below IoU 0.5 (x = 6: 5×11 / (242 − 55) = 0.29) a prediction is a false positive.
        let miss = WiderProtocol.evaluate(faces: [[face(0)]], predictions: [[det(6, 1), det(200, 0)]])
        #expect(point(miss, .widerEasy, t: 1000) == ProtocolCurvePoint(threshold: 0, x: 0, y: 0))
    }

    @Test func eThresholdsCountThePredictionsUpToTheLastThatPasses() {
        #expect(WiderProtocol.threshold(1) == 0.999 && WiderProtocol.threshold(500) == 0.5 && WiderProtocol.threshold(1000) == 0)
        // Two kept faces; a hit (1.0), a false positive (0.5), a hit (0.0): normalised the same.
        let s = WiderProtocol.evaluate(faces: [[face(0), face(100)]], predictions: [[det(0, 1), det(300, 0.5), det(100, 0)]])
        #expect(point(s, .widerEasy, t: 1) == ProtocolCurvePoint(threshold: 0.999, x: 0.5, y: 1))
        #expect(point(s, .widerEasy, t: 499) == ProtocolCurvePoint(threshold: 0.501, x: 0.5, y: 1))
        #expect(point(s, .widerEasy, t: 500) == ProtocolCurvePoint(threshold: 0.5, x: 0.5, y: 0.5))
        #expect(point(s, .widerEasy, t: 999).y == 0.5)
        #expect(point(s, .widerEasy, t: 1000) == ProtocolCurvePoint(threshold: 0, x: 1, y: 2.0 / 3))
        #expect(s.curve(.widerEasy)!.points.count == 1000)
    }

    @Test func fImagesWithoutFacesOrPredictionsAddOnlyTheirFaces() {
        let one = [[face(0)]], hit = [[det(0, 2)]]  // normalised to 1 (max 2, min 1)
        let base = WiderProtocol.evaluate(faces: one, predictions: hit)
        #expect(base.metric("ap_easy") == 1)
        // Predictions on an image without faces are not counted at all (not false positives).
        let noFaces = WiderProtocol.evaluate(faces: one + [[]], predictions: hit + [[det(0, 2), det(50, 2)]])
        #expect(noFaces.metric("ap_easy") == 1)
        // An image with a face and no prediction adds its face: recall stops at one half.
        let noPredictions = WiderProtocol.evaluate(faces: one + [[face(0)]], predictions: hit + [[]])
        #expect(noPredictions.metric("ap_easy") == 0.5)
        #expect(point(noPredictions, .widerEasy, t: 1000).x == 0.5)
    }

    @Test func gAPIsVOCAllPointOverThePrecisionEnvelope() {
        // The case of rule (e): recall 0.5 at precision 1, then 1 at precision 2/3.
        let s = WiderProtocol.evaluate(faces: [[face(0), face(100)]], predictions: [[det(0, 1), det(300, 0.5), det(100, 0)]])
        #expect(abs(s.metric("ap_easy")! - (0.5 * 1 + 0.5 * 2.0 / 3)) < 1e-15)
        // Envelope from the right, NaN (no proposal yet) skipped, (0, 0) before and (1, 0) after.
        let points = [(0.0, Double.nan), (0.25, 0.5), (0.25, 1.0), (0.5, 0.4)].map {
            ProtocolCurvePoint(threshold: 0, x: $0.0, y: $0.1)
        }
        #expect(WiderProtocol.averagePrecision(points) == 0.25 * 1 + 0.25 * 0.4)
        // A subset without faces: AP undefined, said in a note.
        let empty = WiderProtocol.evaluate(faces: [[face(0, 0, [.hard])]], predictions: [[det(0, 2)]])
        #expect(empty.metric("ap_easy")!.isNaN && empty.metric("ap_hard") == 1)
        #expect(empty.notes.contains { $0.contains("easy") })
    }

    @Test func withoutSubsetsOneSettingKeepsTheFacesNotIgnored() {
        let faces = [[face(0, 0, nil), face(100, 0, nil, ignore: true)]]
        let s = WiderProtocol.evaluate(faces: faces, predictions: [[det(0, 1), det(100, 0.5)]])
        #expect(s.metrics.map(\.name) == ["ap_all"] && s.curves.map(\.name) == [.widerAll])
        // The prediction on the ignored face is not counted: precision stays 1.
        #expect(s.metric("ap_all") == 1)
        #expect(s.notes.contains { $0.contains("one setting, all") })
    }

    @Test func aFailedFrameCountsItsFacesAndNoPredictions() throws {
        let images = [AnnotatedImage(path: "a.jpg", name: "a.jpg", faces: [face(0)]),
                      AnnotatedImage(path: "b.jpg", name: "b.jpg", faces: [face(0)])]
        let match = FaceMatching.match([], [])
        let frames = [FrameResult(index: 0, name: "a.jpg", failure: nil, detections: [det(0, 2)], match: match, startNs: 0, durationNs: 0),
                      FrameResult(index: 1, name: "b.jpg", failure: "corrupt image", detections: [det(0, 1)], match: match,
                                  startNs: 0, durationNs: 0)]
        let s = try WiderProtocol().scores(images: images, frames: frames)
        #expect(s.metric("ap_easy") == 0.5)
    }

    @Test func protocolListsParseAndEachOfficialProtocolHasAScorer() throws {
        #expect(try EvaluationProtocol.parseList(["wider,framelab", "wider"]) == [.framelab, .wider])
        #expect(try EvaluationProtocol.parseList([]) == [])
        #expect(throws: (any Error).self) { try EvaluationProtocol.parseList(["widerface"]) }
        #expect(try EvaluationProtocol.wider.scorer() != nil)
        #expect(try EvaluationProtocol.framelab.scorer() == nil)
        #expect(try EvaluationProtocol.fddb.scorer()?.evaluationProtocol == .fddb)
    }
}
