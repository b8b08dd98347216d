import FramelabEvaluation
import Testing

/// The weighted precision-recall a bootstrap resample uses agrees with pooling the
/// detections explicitly.
@Suite struct WeightedPrecisionRecallTests {
    private let outcomes: [ScoredOutcome] = [
        ScoredOutcome(score: 0.9, isTruePositive: true), ScoredOutcome(score: 0.8, isTruePositive: false),
        ScoredOutcome(score: 0.8, isTruePositive: true), ScoredOutcome(score: 0.5, isTruePositive: true),
        ScoredOutcome(score: 0.3, isTruePositive: false), ScoredOutcome(score: 0.2, isTruePositive: true),
    ]

    @Test func weightOneIsThePlainCurve() {
        let plain = PrecisionRecall(outcomes: outcomes, faces: 5)
        let weighted = PrecisionRecall(descending: outcomes, faces: 5) { _ in 1 }
        #expect(plain.curve == weighted.curve && plain.averagePrecision == weighted.averagePrecision)
    }

    @Test func weightsAreRepeatsAndZeroLeavesOut() {
        let weights = [2, 0, 1, 3, 0, 1]
        let repeated = zip(outcomes, weights).flatMap { Array(repeating: $0.0, count: $0.1) }
        let explicit = PrecisionRecall(outcomes: repeated, faces: 9)
        let weighted = PrecisionRecall(descending: outcomes, faces: 9) { weights[$0] }
        #expect(explicit.curve == weighted.curve)
        #expect(explicit.averagePrecision == weighted.averagePrecision)
        #expect(weighted.truePositives == 7 && weighted.falsePositives == 0)
        // Leaving out everything gives no curve and AP 0.
        #expect(PrecisionRecall(descending: outcomes, faces: 3) { _ in 0 }.averagePrecision == 0)
    }
}
