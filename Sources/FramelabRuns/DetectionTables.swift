import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording

/// The detection tables of a run (docs/hdf5-schema.md, "Detection tables"), as rows
/// gathered from results: detections with their matches, ground truth, per-frame counts,
/// curves and metrics. This file builds the rows; `DetectionRows.swift` lays them out;
/// `DetectionTables+Reading.swift` reads them back, from version-2 and version-1 files.
public struct DetectionTables: Sendable {
    public var detections: [DetectionRow] = []
    public var groundTruth: [GroundTruthRow] = []
    public var frameMatches: [FrameMatchRow] = []
    public var curves: [CurvePointRow] = []
    public var metrics: [DetectorMetricsRow] = []
    public var protocolScores: [ProtocolScoreRow] = []
    public var widerSubsets: [WiderSubsetRow] = []

    public init() {}

    /// The tables a run with detectors has: per-frame ones always; ground truth and
    /// frame matches when its frames are annotated; curves, metrics and protocol scores for
    /// an evaluation; WIDER subset membership when the ground truth has it.
    public static func layouts(annotated: Bool, evaluation: Bool, widerSubsets: Bool = false) -> [TableLayout] {
        [DetectionRow.layout] + (annotated ? [GroundTruthRow.layout, FrameMatchRow.layout, ImageRow.layout] : [])
            + (evaluation ? [CurvePointRow.layout, DetectorMetricsRow.layout, ProtocolScoreRow.layout] : [])
            + (annotated && widerSubsets ? [WiderSubsetRow.layout] : [])
    }

    /// A detector's detections on a frame, with the outcome of each when the frame has ground truth.
    mutating func add(frame: Int, detector: Int, _ found: [FaceDetection], outcomes: [MatchOutcome]?) {
        for (i, d) in found.enumerated() {
            var outcome = DetectionOutcome.unmatched, face: Int32 = -1, iou = Double.nan
            switch outcomes?[i] {
            case .truePositive(let f, let overlap)?: outcome = .truePositive; face = Int32(f); iou = overlap
            case .falsePositive?: outcome = .falsePositive
            case .ignored?: outcome = .ignored
            case nil: break
            }
            detections.append(DetectionRow(frame: Int64(frame), detector: Int32(detector), index: Int32(i), detection: d,
                                           outcome: outcome, face: face, iou: iou))
        }
    }

    mutating func add(frame: Int, faces: [GroundTruthFace]) {
        for (f, face) in faces.enumerated() {
            groundTruth.append(GroundTruthRow(frame: Int64(frame), face: Int32(f), truth: face))
        }
    }

    /// The WIDER subsets of a frame's faces, for the faces that carry them.
    mutating func addWiderSubsets(frame: Int, faces: [GroundTruthFace]) {
        for (f, face) in faces.enumerated() {
            if let s = face.widerSubsets { widerSubsets.append(WiderSubsetRow(frame: Int64(frame), face: Int32(f), subsets: s)) }
        }
    }

    /// A detector's scores under one official protocol: its metrics and its curves.
    mutating func add(_ scores: ProtocolScores, detector: Int) {
        let k = Int32(detector)
        for m in scores.metrics {
            protocolScores.append(ProtocolScoreRow(detector: k, evaluationProtocol: scores.evaluationProtocol, metric: m.name,
                                                   value: m.value))
        }
        for c in scores.curves {
            for p in c.points {
                curves.append(CurvePointRow(detector: k, curve: CurveKind(c.name), threshold: p.threshold, x: p.x, y: p.y))
            }
        }
    }

    mutating func add(_ r: FrameResult, detector: Int) {
        let m = r.match
        frameMatches.append(FrameMatchRow(frame: Int64(r.index), detector: Int32(detector), faces: Int32(m.faces),
                                          truePositives: Int32(m.truePositives), falsePositives: Int32(m.falsePositives),
                                          misses: Int32(m.misses), durationNs: Int64(r.durationNs), failed: r.failure != nil))
    }

    mutating func add(_ s: DetectorSummary, detector: Int) {
        let k = Int32(detector)
        for p in s.accuracy.curve {
            curves.append(CurvePointRow(detector: k, curve: .precisionRecall, threshold: p.threshold, x: p.recall, y: p.precision))
        }
        for p in s.roc.discrete {
            curves.append(CurvePointRow(detector: k, curve: .rocDiscrete, threshold: p.threshold,
                                        x: Double(p.falsePositives), y: p.truePositiveRate))
        }
        for p in s.roc.continuous {
            curves.append(CurvePointRow(detector: k, curve: .rocContinuous, threshold: p.threshold,
                                        x: Double(p.falsePositives), y: p.truePositiveRate))
        }
        func ns(_ ms: Double) -> Int64 { ms.isFinite ? Int64((ms * 1e6).rounded()) : -1 }
        metrics.append(DetectorMetricsRow(detector: k, ap: s.accuracy.averagePrecision, precision: s.accuracy.precision,
                                          recall: s.accuracy.recall, f1: s.accuracy.f1, p50Ns: ns(s.p50), p95Ns: ns(s.p95),
                                          images: Int64(s.images), faces: Int64(s.faces), failed: Int64(s.failed),
                                          truePositives: Int64(s.accuracy.truePositives),
                                          falsePositives: Int64(s.accuracy.falsePositives)))
    }

    /// Queues every row for the run's background flush and empties the tables.
    mutating func flush(to writer: RunWriter) {
        writer.append(detections)
        writer.append(groundTruth)
        writer.append(frameMatches)
        writer.append(curves)
        writer.append(metrics)
        writer.append(protocolScores)
        writer.append(widerSubsets)
        self = DetectionTables()
    }
}
