import FramelabCore
import FramelabDatasets

/// `eval --protocol fddb`: FDDB's evaluation program as a protocol scorer. Metrics
/// `tpr_at_1000_fp_discrete`, `tpr_at_1000_fp_continuous` and `faces`; curves
/// `fddb_discrete` and `fddb_continuous` (x false positives, y true-positive rate, highest
/// threshold first). A failed image (missing, corrupt, detector error) is evaluated with no
/// detections: under an official protocol its faces are misses, not left out.
public struct FDDBProtocolScorer: ProtocolScorer {
    public init() {}

    public var evaluationProtocol: EvaluationProtocol { .fddb }

    public func scores(images: [AnnotatedImage], frames: [FrameResult]) throws -> ProtocolScores {
        guard images.count == frames.count else {
            throw FramelabError(.badInput, "fddb protocol: \(images.count) images but \(frames.count) results")
        }
        let fddbImages = try zip(images, frames).map { image, frame in
            try FDDBImage(annotated: image, detections: frame.failure == nil ? frame.detections : [])
        }
        let result = try FDDBProtocol.evaluate(fddbImages)
        let failed = frames.filter { $0.failure != nil }.count
        return ProtocolScores(
            evaluationProtocol: .fddb,
            metrics: [ProtocolMetric("tpr_at_1000_fp_discrete", result.tprAt1000Discrete),
                      ProtocolMetric("tpr_at_1000_fp_continuous", result.tprAt1000Continuous),
                      ProtocolMetric("faces", Double(result.faces))],
            curves: [ProtocolCurve(name: .fddbDiscrete, points: Self.points(result.discrete)),
                     ProtocolCurve(name: .fddbContinuous, points: Self.points(result.continuous))],
            notes: ["overlap is the pixel IoU of filled ellipses (faces) and rectangles (detections); TPR at the "
                    + "largest false-positive count <= 1000"]
                + (failed > 0 ? ["\(failed) image(s) failed: their faces count as misses"] : []))
    }

    static func points(_ curve: [ROCPoint]) -> [ProtocolCurvePoint] {
        curve.map { ProtocolCurvePoint(threshold: $0.threshold, x: Double($0.falsePositives), y: $0.truePositiveRate) }
    }
}

extension FDDBProtocolResult {
    /// The result again from its recorded scores (for writing the ROC files of a scored run).
    public init?(_ scores: ProtocolScores) {
        guard scores.evaluationProtocol == .fddb, let faces = scores.metric("faces"),
              let d = scores.curve(.fddbDiscrete), let c = scores.curve(.fddbContinuous) else { return nil }
        func roc(_ curve: ProtocolCurve) -> [ROCPoint] {
            curve.points.map { ROCPoint(threshold: $0.threshold, falsePositives: Int(checked: $0.x) ?? 0, truePositiveRate: $0.y) }
        }
        self.init(faces: Int(checked: faces) ?? 0, discrete: roc(d), continuous: roc(c))
    }
}
