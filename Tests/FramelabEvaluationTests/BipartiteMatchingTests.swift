import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import Testing

/// The Hungarian matching against exhaustive search, and FDDB's ROC on hand-made frames
/// where the greedy matching and the maximum-weight one disagree.
@Suite struct BipartiteMatchingTests {
    /// The best total weight over every matching, by trying each column (or none) for each row.
    static func bruteForce(_ w: [[Double]], minimum: Double, row: Int = 0, used: Set<Int> = []) -> Double {
        guard row < w.count else { return 0 }
        var best = bruteForce(w, minimum: minimum, row: row + 1, used: used)
        for c in w[row].indices where !used.contains(c) && w[row][c] >= minimum {
            best = max(best, w[row][c] + bruteForce(w, minimum: minimum, row: row + 1, used: used.union([c])))
        }
        return best
    }

    @Test func findsTheBestTotalWeightOnRandomMatrices() {
        var random = SplitMix64(seed: 42)   // seeded, so a failure reproduces
        for trial in 0..<300 {
            let rows = 1 + trial % 6, columns = 1 + (trial / 6) % 6
            let w = (0..<rows).map { _ in (0..<columns).map { _ in Double.random(in: 0..<1, using: &random) } }
            let pairs = BipartiteMatching.maximumWeight(w, minimum: 0.5)
            let total = pairs.reduce(0) { $0 + w[$1.row][$1.column] }
            #expect(abs(total - Self.bruteForce(w, minimum: 0.5)) < 1e-9, "trial \(trial): \(w)")
            #expect(Set(pairs.map(\.row)).count == pairs.count && Set(pairs.map(\.column)).count == pairs.count)
            #expect(pairs.allSatisfy { w[$0.row][$0.column] >= 0.5 })
        }
    }

    @Test func edgesBelowTheMinimumAreNeverPaired() {
        #expect(BipartiteMatching.maximumWeight([[0.49, 0.2], [0.1, 0.3]], minimum: 0.5).isEmpty)
        #expect(BipartiteMatching.maximumWeight([], minimum: 0.5).isEmpty)
        let pairs = BipartiteMatching.maximumWeight([[0.9], [0.6], [0.7]], minimum: 0.5)
        #expect(pairs.map(\.row) == [0] && pairs.map(\.column) == [0])
    }

    // Two 100x100 faces 40 px apart; detection A (score 0.9) at x = 24 overlaps face 0 by
    // 76/124 and face 1 by 84/116; detection B (score 0.5) at x = 50 overlaps face 1 by
    // 90/110 and face 0 by 50/150 only. Greedy gives A face 1 and leaves B unmatched; the
    // maximum-weight matching pairs A with face 0 and B with face 1.
    let faces = [GroundTruthFace(box: FaceBox(x: 0, y: 0, width: 100, height: 100)),
                 GroundTruthFace(box: FaceBox(x: 40, y: 0, width: 100, height: 100))]
    let detections = [FaceDetection(box: BoundingBox(x: 24, y: 0, width: 100, height: 100), score: 0.9),
                      FaceDetection(box: BoundingBox(x: 50, y: 0, width: 100, height: 100), score: 0.5)]

    func frame(_ d: [FaceDetection], _ f: [GroundTruthFace], index: Int = 0) -> FrameResult {
        FrameResult(index: index, name: "hand-made", failure: nil, detections: d, match: FaceMatching.match(d, f),
                    startNs: 0, durationNs: 0, faces: f)
    }

    @Test func fddbROCUsesTheMaximumWeightMatchingWhereGreedyLosesAFace() {
        let greedy = FaceMatching.match(detections, faces)
        #expect(greedy.truePositives == 1 && greedy.falsePositives == 1)

        let roc = FDDBROC(frames: [frame(detections, faces)])
        #expect(roc.discrete == [ROCPoint(threshold: 0.9, falsePositives: 0, truePositiveRate: 0.5),
                                 ROCPoint(threshold: 0.5, falsePositives: 0, truePositiveRate: 1)])
        // Continuous: at 0.9 only A, paired with the face it overlaps most; at 0.5 the
        // pairing changes to A–face 0 plus B–face 1.
        #expect(roc.continuous.map(\.threshold) == [0.9, 0.5])
        #expect(abs(roc.continuous[0].truePositiveRate - (84.0 / 116.0) / 2) < 1e-12)
        #expect(abs(roc.continuous[1].truePositiveRate - (76.0 / 124.0 + 90.0 / 110.0) / 2) < 1e-12)

        // The greedy outcomes of the same frame give the other curve.
        let greedyROC = FDDBROC(outcomes: [ScoredOutcome(score: 0.9, isTruePositive: true, iou: 84.0 / 116.0),
                                           ScoredOutcome(score: 0.5, isTruePositive: false)], faces: 2)
        #expect(greedyROC.discrete.map(\.falsePositives) == [0, 1])
        #expect(greedyROC.discrete.map(\.truePositiveRate) == [0.5, 0.5])
    }

    @Test func framesAddUpAndFarAwayBoxesAreFalsePositives() {
        let stray = FaceDetection(box: BoundingBox(x: 500, y: 500, width: 40, height: 40), score: 0.7)
        let second = frame([stray], [GroundTruthFace(box: FaceBox(x: 0, y: 0, width: 80, height: 80))], index: 1)
        let roc = FDDBROC(frames: [frame(detections, faces), second])
        // Thresholds over both frames: 0.9 (A), 0.7 (the stray box), 0.5 (B); 3 faces in all.
        #expect(roc.discrete.map(\.threshold) == [0.9, 0.7, 0.5])
        #expect(roc.discrete.map(\.falsePositives) == [0, 1, 1])
        let third: Double = 1.0 / 3
        let rates: [Double] = [third, third, 2 * third]
        #expect(roc.discrete.map(\.truePositiveRate) == rates)
    }

    @Test func anUnmatchedBoxOnAnIgnoreFaceCountsNeitherWay() {
        let f = [GroundTruthFace(box: FaceBox(x: 0, y: 0, width: 100, height: 100)),
                 GroundTruthFace(box: FaceBox(x: 300, y: 0, width: 100, height: 100), ignore: true)]
        let d = [FaceDetection(box: BoundingBox(x: 0, y: 0, width: 100, height: 100), score: 2),
                 FaceDetection(box: BoundingBox(x: 305, y: 0, width: 100, height: 100), score: 1)]
        let roc = FDDBROC(frames: [frame(d, f)])
        #expect(roc.discrete == [ROCPoint(threshold: 2, falsePositives: 0, truePositiveRate: 1),
                                 ROCPoint(threshold: 1, falsePositives: 0, truePositiveRate: 1)])
    }

    @Test func aFrameWithoutItsFacesFallsBackToItsRecordedOutcomes() {
        var f = frame(detections, faces)
        f.faces = []
        let roc = FDDBROC(frames: [f])
        #expect(roc.discrete.map(\.falsePositives) == [0, 1])
        #expect(roc.discrete.map(\.truePositiveRate) == [0.5, 0.5])
    }
}
