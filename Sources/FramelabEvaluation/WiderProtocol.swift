import FramelabCore
import FramelabDatasets
import FramelabDetection

/// The WIDER FACE evaluation kit's protocol (Yang et al., 2016: eval_tools/wider_eval.m and
/// evaluation.m, and their Python port), rule for rule:
///
/// (a) each image's predictions in decreasing score order (stable);
/// (b) scores normalised over the whole set, (s − min) / (max − min) with max = max(0, scores)
///     and min = min(1, scores) (the Python port's starting values);
/// (c) IoU on corners x2 = x + w, y2 = y + h with the +1 pixel convention;
/// (d) each prediction takes the face it overlaps most among all the image's faces; at
///     IoU >= 0.5 a face outside the setting makes it neither true nor false, an unmatched
///     kept face becomes matched, a matched one leaves it a false positive;
/// (e) at thresholds 1 − t/1000 (t = 1…1000) each image adds its counted predictions with
///     normalised score >= the threshold and the faces matched once they are in;
/// (f) an image with no faces or no predictions adds only its kept faces;
/// (g) precision = matched / counted predictions, recall = matched / kept faces; AP with VOC's
///     all-point interpolation.
///
/// Settings: the kit's easy, medium and hard subsets when the ground truth says which faces
/// each keeps (`GroundTruthFace.widerSubsets`, from the kit's .mat files); otherwise one
/// setting, "all", keeping every face not marked `ignore`.
public struct WiderProtocol: ProtocolScorer {
    public static let iouThreshold = 0.5
    public static let thresholdCount = 1000

    public enum Setting: String, Sendable, CaseIterable {
        case easy, medium, hard, all

        /// Whether the setting keeps `face` (faces it does not keep are ignored in it).
        func keeps(_ face: GroundTruthFace) -> Bool {
            switch self {
            case .easy: return face.widerSubsets?.contains(.easy) ?? false
            case .medium: return face.widerSubsets?.contains(.medium) ?? false
            case .hard: return face.widerSubsets?.contains(.hard) ?? false
            case .all: return !face.ignore
            }
        }

        var curveName: ProtocolCurveName {
            switch self {
            case .easy: return .widerEasy
            case .medium: return .widerMedium
            case .hard: return .widerHard
            case .all: return .widerAll
            }
        }
    }

    public init() {}

    public var evaluationProtocol: EvaluationProtocol { .wider }

    public func scores(images: [AnnotatedImage], frames: [FrameResult]) throws -> ProtocolScores {
        guard images.count == frames.count else {
            throw FramelabError(.processing, "WIDER protocol: \(frames.count) results for \(images.count) images")
        }
        return Self.evaluate(faces: images.map(\.faces),
                             predictions: frames.map { $0.failure == nil ? $0.detections : [] })
    }

    /// The settings a ground truth supports: easy, medium and hard when any face carries
    /// subset membership, else "all".
    public static func settings(_ faces: [[GroundTruthFace]]) -> [Setting] {
        faces.contains { $0.contains { $0.widerSubsets != nil } } ? [.easy, .medium, .hard] : [.all]
    }

    /// AP and the PR curve of every supported setting: `faces[i]` and `predictions[i]` are image i's.
    public static func evaluate(faces: [[GroundTruthFace]], predictions: [[FaceDetection]]) -> ProtocolScores {
        let settings = settings(faces)
        let images = zip(faces, normalisedAndSorted(predictions)).map { WiderImage(faces: $0, predictions: $1) }
        var metrics: [ProtocolMetric] = [], curves: [ProtocolCurve] = [], notes: [String] = []
        for setting in settings {
            var totals = [WiderImage.Counts](repeating: .init(), count: thresholdCount)
            var kept = 0
            for image in images {
                kept += image.keptFaces(setting)
                image.addCounts(setting, to: &totals)
            }
            let points = curve(totals, keptFaces: kept)
            let ap = kept == 0 ? Double.nan : averagePrecision(points)
            metrics.append(ProtocolMetric("ap_\(setting.rawValue)", ap))
            curves.append(ProtocolCurve(name: setting.curveName, points: points))
            if kept == 0 { notes.append("no face is kept in the \(setting.rawValue) setting: its AP is undefined") }
        }
        if settings == [.all] {
            notes.append("the ground truth has no easy/medium/hard membership (the kit's .mat files give it): "
                         + "one setting, all, keeps every face not marked ignore")
        }
        return ProtocolScores(evaluationProtocol: .wider, metrics: metrics, curves: curves, notes: notes)
    }

    /// Rule (e)'s thresholds: 1 − t/1000 for t = 1…1000, computed as the kit computes them.
    public static func threshold(_ t: Int) -> Double { 1 - Double(t) / Double(thresholdCount) }

    /// Rules (a) and (b): each image's predictions in decreasing score order (stable), with
    /// the scores normalised over the whole set. A set whose scores all equal one value in
    /// [0, 1] normalises to 0/0 = NaN, which passes no threshold, as in the kit.
    public static func normalisedAndSorted(_ predictions: [[FaceDetection]]) -> [[FaceDetection]] {
        var high = 0.0, low = 1.0
        for p in predictions.joined() {
            if p.score > high { high = p.score }
            if p.score < low { low = p.score }
        }
        let range = high - low
        return predictions.map { image in
            let order = image.indices.sorted { a, b in image[a].score != image[b].score ? image[a].score > image[b].score : a < b }
            return order.map { i in
                var d = image[i]
                d.score = (d.score - low) / range
                return d
            }
        }
    }

    /// Rule (c): overlap of two x, y, w, h boxes on corners with the +1 pixel convention.
    public static func iou(_ prediction: BoundingBox, _ face: FaceBox) -> Double {
        let px2 = prediction.x + prediction.width, py2 = prediction.y + prediction.height
        let fx2 = face.x + face.width, fy2 = face.y + face.height
        let w = min(px2, fx2) - max(prediction.x, face.x) + 1
        let h = min(py2, fy2) - max(prediction.y, face.y) + 1
        guard w > 0 && h > 0 else { return 0 }
        let intersection = w * h
        let predictionArea = (px2 - prediction.x + 1) * (py2 - prediction.y + 1)
        let faceArea = (fx2 - face.x + 1) * (fy2 - face.y + 1)
        return intersection / (faceArea + predictionArea - intersection)
    }

    /// Rule (g): precision and recall at each threshold (precision is 0/0 = NaN where no
    /// counted prediction passes, as in the kit).
    static func curve(_ totals: [WiderImage.Counts], keptFaces: Int) -> [ProtocolCurvePoint] {
        totals.enumerated().map { t, c in
            ProtocolCurvePoint(threshold: threshold(t + 1), x: Double(c.matched) / Double(keptFaces),
                               y: Double(c.matched) / Double(c.proposals))
        }
    }

    /// Rule (g): VOC's all-point AP over the curve with (recall 0, precision 0) before it and
    /// (1, 0) after it: the precision envelope (running maximum from the right, NaN skipped)
    /// summed over the steps where recall changes.
    public static func averagePrecision(_ points: [ProtocolCurvePoint]) -> Double {
        let recall = [0] + points.map(\.x) + [1]
        var precision = [0] + points.map(\.y) + [0]
        for i in stride(from: precision.count - 1, to: 0, by: -1) where !(precision[i - 1] >= precision[i]) {
            if !precision[i].isNaN { precision[i - 1] = precision[i] }
        }
        var ap = 0.0
        for i in 1..<recall.count where recall[i] != recall[i - 1] {
            ap += (recall[i] - recall[i - 1]) * precision[i]
        }
        return ap
    }
}
