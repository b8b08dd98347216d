import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording

/// The detection tables of a run (docs/hdf5-schema.md, "Detection tables"): numeric
/// columns, one row per record, NaN where a value is absent. This file writes them and
/// (`DetectionTables.Recorded`) reads them back; nothing else names their columns.
public struct DetectionTables: Sendable {
    public init() {}

    var detections = RunTable(name: "detections", columns: [
        "frame", "detector", "index", "x", "y", "width", "height", "score",
        "left_eye_x", "left_eye_y", "right_eye_x", "right_eye_y", "mouth_x", "mouth_y",
        "outcome", "face", "iou"])
    var groundTruth = RunTable(name: "ground_truth", columns: ["frame", "face", "x", "y", "width", "height", "ignore"])
    var frameMatches = RunTable(name: "frame_matches", columns: [
        "frame", "detector", "faces", "true_positives", "false_positives", "misses", "duration_ms", "failed"])
    var curves = RunTable(name: "curves", columns: ["detector", "curve", "threshold", "x", "y"])
    var metrics = RunTable(name: "detector_metrics", columns: [
        "detector", "ap", "precision", "recall", "f1", "p50_ms", "p95_ms", "images", "faces", "failed",
        "true_positives", "false_positives"])

    /// `outcome`: 1 true positive, 0 false positive, 2 ignored (on an ignore face), -1 not matched (no ground truth).
    mutating func add(frame: Int, detector: Int, _ found: [FaceDetection], outcomes: [MatchOutcome]?) {
        let nan = Double.nan
        for (i, d) in found.enumerated() {
            var outcome = -1.0, face = -1.0, iou = nan
            switch outcomes?[i] {
            case .truePositive(let f, let overlap)?: outcome = 1; face = Double(f); iou = overlap
            case .falsePositive?: outcome = 0
            case .ignored?: outcome = 2
            case nil: break
            }
            detections.rows.append([Double(frame), Double(detector), Double(i), d.box.x, d.box.y, d.box.width, d.box.height,
                                    d.score, d.leftEye?.x ?? nan, d.leftEye?.y ?? nan, d.rightEye?.x ?? nan,
                                    d.rightEye?.y ?? nan, d.mouth?.x ?? nan, d.mouth?.y ?? nan, outcome, face, iou])
        }
    }

    mutating func add(frame: Int, faces: [GroundTruthFace]) {
        for (f, face) in faces.enumerated() {
            groundTruth.rows.append([Double(frame), Double(f), face.box.x, face.box.y, face.box.width, face.box.height,
                                     face.ignore ? 1 : 0])
        }
    }

    mutating func add(_ r: FrameResult, detector: Int) {
        let m = r.match
        frameMatches.rows.append([Double(r.index), Double(detector), Double(m.faces), Double(m.truePositives),
                                  Double(m.falsePositives), Double(m.misses), r.milliseconds, r.failure == nil ? 0 : 1])
    }

    /// `curve`: 0 precision-recall (x recall, y precision), 1 FDDB discrete ROC, 2 FDDB
    /// continuous ROC (x false positives, y true positive rate).
    mutating func add(_ s: DetectorSummary, detector: Int) {
        let k = Double(detector)
        for p in s.accuracy.curve { curves.rows.append([k, 0, p.threshold, p.recall, p.precision]) }
        for p in s.roc.discrete { curves.rows.append([k, 1, p.threshold, Double(p.falsePositives), p.truePositiveRate]) }
        for p in s.roc.continuous { curves.rows.append([k, 2, p.threshold, Double(p.falsePositives), p.truePositiveRate]) }
        metrics.rows.append([k, s.accuracy.averagePrecision, s.accuracy.precision, s.accuracy.recall, s.accuracy.f1,
                             s.p50, s.p95, Double(s.images), Double(s.faces), Double(s.failed),
                             Double(s.accuracy.truePositives), Double(s.accuracy.falsePositives)])
    }

    var all: [RunTable] { [detections, groundTruth, frameMatches, curves, metrics] }

    /// The names of the tables, for readers that list what a run holds.
    public static var tableNames: [String] { DetectionTables().all.map(\.name) }
}
