import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import Testing

@Suite struct FaceMatchingTests {
    func face(_ x: Double, _ y: Double, _ s: Double, ignore: Bool = false) -> GroundTruthFace {
        GroundTruthFace(box: FaceBox(x: x, y: y, width: s, height: s), ignore: ignore)
    }
    func det(_ x: Double, _ y: Double, _ s: Double, _ score: Double) -> FaceDetection {
        FaceDetection(box: BoundingBox(x: x, y: y, width: s, height: s), score: score)
    }

    @Test func higherScoresMatchFirstAndEachFaceOnce() {
        let faces = [face(0, 0, 100), face(300, 0, 100)]
        // Two detections on face 0: the higher-scored one wins it, the other is a false positive.
        let dets = [det(10, 0, 100, 0.5), det(0, 0, 100, 0.9), det(300, 10, 100, 0.7), det(600, 600, 50, 0.8)]
        let m = FaceMatching.match(dets, faces)
        #expect(m.outcomes[1] == .truePositive(face: 0, iou: 1))
        #expect(m.outcomes[0] == .falsePositive)
        if case .truePositive(let f, let iou) = m.outcomes[2] { #expect(f == 1 && abs(iou - 90.0 / 110.0) < 1e-12) } else {
            Issue.record("detection 2 should match face 1")
        }
        #expect(m.outcomes[3] == .falsePositive)
        #expect(m.truePositives == 2 && m.falsePositives == 2 && m.misses == 0)
        #expect(m.matchedDetection == [1, 2])
    }

    @Test func belowHalfIoUIsAFalsePositiveAndAMiss() {
        // IoU of [0,100) and [60,160) squares: 40*100 / (2*10000 - 4000) = 0.25.
        let m = FaceMatching.match([det(60, 0, 100, 1)], [face(0, 0, 100)])
        #expect(m.falsePositives == 1 && m.misses == 1)
    }

    @Test func detectionsOnIgnoredFacesCountNeitherWay() {
        let m = FaceMatching.match([det(0, 0, 100, 1)], [face(0, 0, 100, ignore: true)])
        #expect(m.outcomes == [.ignored] && m.faces == 0 && m.falsePositives == 0)
    }
}

@Suite struct PrecisionRecallTests {
    @Test func averagePrecisionUsesAllPointInterpolation() {
        let o = [ScoredOutcome(score: 0.9, isTruePositive: true), ScoredOutcome(score: 0.8, isTruePositive: false),
                 ScoredOutcome(score: 0.7, isTruePositive: true)]
        let pr = PrecisionRecall(outcomes: o, faces: 3)
        // Points (P, R): (1, 1/3), (1/2, 1/3), (2/3, 2/3); envelope 1, 2/3, 2/3.
        #expect(abs(pr.averagePrecision - 5.0 / 9.0) < 1e-12)
        #expect(abs(pr.precision - 2.0 / 3.0) < 1e-12 && abs(pr.recall - 2.0 / 3.0) < 1e-12)
        #expect(abs(pr.f1 - 2.0 / 3.0) < 1e-12)
        #expect(pr.curve.count == 3)
    }

    @Test func equalScoresEnterTogether() {
        let o = [ScoredOutcome(score: 5, isTruePositive: false), ScoredOutcome(score: 5, isTruePositive: true)]
        let pr = PrecisionRecall(outcomes: o, faces: 1)
        #expect(pr.curve == [PRPoint(threshold: 5, precision: 0.5, recall: 1)])
        #expect(pr.averagePrecision == 0.5)
    }

    @Test func fddbROCCountsFalsePositivesAndOverlap() {
        let o = [ScoredOutcome(score: 3, isTruePositive: true, iou: 0.8), ScoredOutcome(score: 2, isTruePositive: false),
                 ScoredOutcome(score: 1, isTruePositive: true, iou: 0.6)]
        let roc = FDDBROC(outcomes: o, faces: 4)
        #expect(roc.discrete.map(\.falsePositives) == [0, 1, 1])
        #expect(roc.discrete.map(\.truePositiveRate) == [0.25, 0.25, 0.5])
        #expect(abs(roc.continuous.last!.truePositiveRate - 1.4 / 4) < 1e-12)
    }
}
