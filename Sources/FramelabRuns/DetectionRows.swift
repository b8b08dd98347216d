import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording

/// The rows of the detection tables (docs/hdf5-schema.md, "Detection tables"). Detector
/// columns hold the stage's position and are stored as the run's stage names.

/// What the matching made of a detection: `outcome` in `detections`.
public enum DetectionOutcome: Int8, Sendable, CaseIterable {
    case unmatched = -1, falsePositive = 0, truePositive = 1, ignored = 2

    var storedName: String {
        switch self {
        case .unmatched: return "unmatched"
        case .falsePositive: return "false_positive"
        case .truePositive: return "true_positive"
        case .ignored: return "ignored"
        }
    }

    static let column = ColumnType.named8(allCases.map { ($0.storedName, $0.rawValue) })
}

/// One detection: a row of `detections`.
public struct DetectionRow: TableRow, Equatable {
    public var frame: Int64
    public var detector: Int32
    /// Its place among the detector's detections on the frame.
    public var index: Int32
    public var detection: FaceDetection
    public var outcome: DetectionOutcome
    /// The matched annotated face, or -1.
    public var face: Int32
    /// Overlap with the matched face, or NaN.
    public var iou: Double

    public static let layout = TableLayout(name: "detections", columns: [
        TableColumn("frame", .int64), TableColumn("detector", .stage), TableColumn("index", .int32),
        TableColumn("x", .float64), TableColumn("y", .float64), TableColumn("width", .float64), TableColumn("height", .float64),
        TableColumn("score", .float64),
        TableColumn("left_eye_x", .float64), TableColumn("left_eye_y", .float64),
        TableColumn("right_eye_x", .float64), TableColumn("right_eye_y", .float64),
        TableColumn("mouth_x", .float64), TableColumn("mouth_y", .float64),
        TableColumn("outcome", DetectionOutcome.column), TableColumn("face", .int32), TableColumn("iou", .float64),
    ], chunkRows: 1024)

    public init(frame: Int64, detector: Int32, index: Int32, detection: FaceDetection, outcome: DetectionOutcome,
                face: Int32, iou: Double) {
        self.frame = frame; self.detector = detector; self.index = index; self.detection = detection
        self.outcome = outcome; self.face = face; self.iou = iou
    }

    public func encode(to e: inout RowEncoder) {
        e.int64(frame); e.int32(detector); e.int32(index)
        let b = detection.box
        for v in [b.x, b.y, b.width, b.height, detection.score] { e.float64(v) }
        for p in [detection.leftEye, detection.rightEye, detection.mouth] {
            e.float64(p?.x ?? .nan)
            e.float64(p?.y ?? .nan)
        }
        e.int8(outcome.rawValue); e.int32(face); e.float64(iou)
    }

    public init(from d: inout RowDecoder) {
        frame = d.int64(); detector = d.int32(); index = d.int32()
        let box = BoundingBox(x: d.float64(), y: d.float64(), width: d.float64(), height: d.float64())
        let score = d.float64()
        func point(_ x: Double, _ y: Double) -> ImagePoint? { x.isNaN || y.isNaN ? nil : ImagePoint(x: x, y: y) }
        let left = point(d.float64(), d.float64()), right = point(d.float64(), d.float64()), mouth = point(d.float64(), d.float64())
        detection = FaceDetection(box: box, score: score, leftEye: left, rightEye: right, mouth: mouth)
        outcome = DetectionOutcome(rawValue: d.int8()) ?? .unmatched
        face = d.int32(); iou = d.float64()
    }

    /// Whether a recomputed match says what was recorded.
    public func agrees(with match: MatchOutcome) -> Bool {
        switch match {
        case .truePositive(let f, let overlap): return outcome == .truePositive && face == f && iou == overlap
        case .falsePositive: return outcome == .falsePositive
        case .ignored: return outcome == .ignored
        }
    }
}

/// One annotated face: a row of `ground_truth`.
public struct GroundTruthRow: TableRow, Equatable {
    public var frame: Int64
    public var face: Int32
    public var truth: GroundTruthFace

    public static let layout = TableLayout(name: "ground_truth", columns: [
        TableColumn("frame", .int64), TableColumn("face", .int32), TableColumn("x", .float64), TableColumn("y", .float64),
        TableColumn("width", .float64), TableColumn("height", .float64), TableColumn("ignore", .uint8),
    ], chunkRows: 1024)

    public init(frame: Int64, face: Int32, truth: GroundTruthFace) {
        self.frame = frame; self.face = face; self.truth = truth
    }

    public func encode(to e: inout RowEncoder) {
        e.int64(frame); e.int32(face)
        for v in [truth.box.x, truth.box.y, truth.box.width, truth.box.height] { e.float64(v) }
        e.bool(truth.ignore)
    }

    public init(from d: inout RowDecoder) {
        frame = d.int64(); face = d.int32()
        let box = FaceBox(x: d.float64(), y: d.float64(), width: d.float64(), height: d.float64())
        truth = GroundTruthFace(box: box, ignore: d.bool())
    }
}

/// One image and detector: a row of `frame_matches`.
public struct FrameMatchRow: TableRow, Equatable {
    public var frame: Int64
    public var detector: Int32
    public var faces: Int32, truePositives: Int32, falsePositives: Int32, misses: Int32
    public var durationNs: Int64
    public var failed: Bool

    public static let layout = TableLayout(name: "frame_matches", columns: [
        TableColumn("frame", .int64), TableColumn("detector", .stage), TableColumn("faces", .int32),
        TableColumn("true_positives", .int32), TableColumn("false_positives", .int32), TableColumn("misses", .int32),
        TableColumn("duration_ns", .int64), TableColumn("failed", .uint8),
    ], chunkRows: 1024)

    public init(frame: Int64, detector: Int32, faces: Int32, truePositives: Int32, falsePositives: Int32, misses: Int32,
                durationNs: Int64, failed: Bool) {
        self.frame = frame; self.detector = detector; self.faces = faces; self.truePositives = truePositives
        self.falsePositives = falsePositives; self.misses = misses; self.durationNs = durationNs; self.failed = failed
    }

    public func encode(to e: inout RowEncoder) {
        e.int64(frame); e.int32(detector)
        for v in [faces, truePositives, falsePositives, misses] { e.int32(v) }
        e.int64(durationNs); e.bool(failed)
    }

    public init(from d: inout RowDecoder) {
        self.init(frame: d.int64(), detector: d.int32(), faces: d.int32(), truePositives: d.int32(),
                  falsePositives: d.int32(), misses: d.int32(), durationNs: d.int64(), failed: d.bool())
    }
}

/// Which curve a point of `curves` belongs to: Framelab's own (0…2), then the official
/// protocols' (`ProtocolCurveName`, stored under the same names).
public enum CurveKind: Int8, Sendable, CaseIterable {
    case precisionRecall = 0, rocDiscrete = 1, rocContinuous = 2
    case widerEasy = 3, widerMedium = 4, widerHard = 5, widerAll = 6, fddbDiscrete = 7, fddbContinuous = 8

    public init(_ name: ProtocolCurveName) {
        switch name {
        case .widerEasy: self = .widerEasy
        case .widerMedium: self = .widerMedium
        case .widerHard: self = .widerHard
        case .widerAll: self = .widerAll
        case .fddbDiscrete: self = .fddbDiscrete
        case .fddbContinuous: self = .fddbContinuous
        }
    }

    var storedName: String {
        switch self {
        case .precisionRecall: return "precision_recall"
        case .rocDiscrete: return "roc_discrete"
        case .rocContinuous: return "roc_continuous"
        case .widerEasy: return ProtocolCurveName.widerEasy.rawValue
        case .widerMedium: return ProtocolCurveName.widerMedium.rawValue
        case .widerHard: return ProtocolCurveName.widerHard.rawValue
        case .widerAll: return ProtocolCurveName.widerAll.rawValue
        case .fddbDiscrete: return ProtocolCurveName.fddbDiscrete.rawValue
        case .fddbContinuous: return ProtocolCurveName.fddbContinuous.rawValue
        }
    }

    static let column = ColumnType.named8(allCases.map { ($0.storedName, $0.rawValue) })
}

/// One curve point: a row of `curves`.
public struct CurvePointRow: TableRow, Equatable {
    public var detector: Int32
    public var curve: CurveKind
    public var threshold: Double, x: Double, y: Double

    public static let layout = TableLayout(name: "curves", columns: [
        TableColumn("detector", .stage), TableColumn("curve", CurveKind.column), TableColumn("threshold", .float64),
        TableColumn("x", .float64), TableColumn("y", .float64),
    ], chunkRows: 1024)

    public init(detector: Int32, curve: CurveKind, threshold: Double, x: Double, y: Double) {
        self.detector = detector; self.curve = curve; self.threshold = threshold; self.x = x; self.y = y
    }

    public func encode(to e: inout RowEncoder) {
        e.int32(detector); e.int8(curve.rawValue); e.float64(threshold); e.float64(x); e.float64(y)
    }

    public init(from d: inout RowDecoder) {
        self.init(detector: d.int32(), curve: CurveKind(rawValue: d.int8()) ?? .precisionRecall, threshold: d.float64(),
                  x: d.float64(), y: d.float64())
    }
}

/// One detector's scores: a row of `detector_metrics`.
public struct DetectorMetricsRow: TableRow, Equatable {
    public var detector: Int32
    public var ap: Double, precision: Double, recall: Double, f1: Double
    public var p50Ns: Int64, p95Ns: Int64
    public var images: Int64, faces: Int64, failed: Int64, truePositives: Int64, falsePositives: Int64

    public static let layout = TableLayout(name: "detector_metrics", columns: [
        TableColumn("detector", .stage), TableColumn("ap", .float64), TableColumn("precision", .float64),
        TableColumn("recall", .float64), TableColumn("f1", .float64), TableColumn("p50_ns", .int64),
        TableColumn("p95_ns", .int64), TableColumn("images", .int64), TableColumn("faces", .int64),
        TableColumn("failed", .int64), TableColumn("true_positives", .int64), TableColumn("false_positives", .int64),
    ], chunkRows: 64)

    public init(detector: Int32, ap: Double, precision: Double, recall: Double, f1: Double, p50Ns: Int64, p95Ns: Int64,
                images: Int64, faces: Int64, failed: Int64, truePositives: Int64, falsePositives: Int64) {
        self.detector = detector; self.ap = ap; self.precision = precision; self.recall = recall; self.f1 = f1
        self.p50Ns = p50Ns; self.p95Ns = p95Ns; self.images = images; self.faces = faces; self.failed = failed
        self.truePositives = truePositives; self.falsePositives = falsePositives
    }

    public func encode(to e: inout RowEncoder) {
        e.int32(detector)
        for v in [ap, precision, recall, f1] { e.float64(v) }
        for v in [p50Ns, p95Ns, images, faces, failed, truePositives, falsePositives] { e.int64(v) }
    }

    public init(from d: inout RowDecoder) {
        self.init(detector: d.int32(), ap: d.float64(), precision: d.float64(), recall: d.float64(), f1: d.float64(),
                  p50Ns: d.int64(), p95Ns: d.int64(), images: d.int64(), faces: d.int64(), failed: d.int64(),
                  truePositives: d.int64(), falsePositives: d.int64())
    }
}

/// One dataset image: a row of `images`, its path relative to the run's `dataset_root`.
public struct ImageRow: TableRow, Equatable {
    public var frame: Int64
    public var path: String

    public static let pathBytes = 1024
    public static let layout = TableLayout(name: "images", columns: [
        TableColumn("frame", .int64), TableColumn("path", .text(bytes: pathBytes)),
    ], chunkRows: 256)

    public init(frame: Int64, path: String) {
        self.frame = frame; self.path = path
    }

    public func encode(to e: inout RowEncoder) {
        e.int64(frame); e.text(path, bytes: Self.pathBytes)
    }

    public init(from d: inout RowDecoder) {
        self.init(frame: d.int64(), path: d.text(bytes: Self.pathBytes))
    }
}
