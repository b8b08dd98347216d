import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording

extension DetectionTables {
    /// One recorded detection with the match the recording made of it.
    public struct RecordedDetection: Sendable {
        public let frame: Int
        public let detector: Int
        /// Its place among the detector's detections on the frame.
        public let index: Int
        public let detection: FaceDetection
        /// The recorded `outcome`, `face` and `iou` columns.
        public let outcome: Double
        public let face: Double
        public let iou: Double

        /// Whether a recomputed match says what was recorded.
        public func agrees(with match: MatchOutcome) -> Bool {
            switch match {
            case .truePositive(let f, let overlap): return outcome == 1 && face == Double(f) && iou == overlap
            case .falsePositive: return outcome == 0
            case .ignored: return outcome == 2
            }
        }
    }

    /// One annotated face as a run recorded it.
    public struct RecordedFace: Sendable {
        public let frame: Int
        public let face: Int
        public let truth: GroundTruthFace
    }

    /// A run's per-frame detection tables, read back typed (`detections`, `ground_truth`,
    /// `frame_matches`); a missing table or column is an error naming the file and run.
    public struct Recorded: Sendable {
        public let detections: [RecordedDetection]
        public let groundTruth: [RecordedFace]
        /// `duration_ms` of each (frame, detector) pair.
        public let durationMs: [FrameDetector: Double]

        public static func read(path: String, runID: String) throws -> Recorded {
            func table(_ name: String) throws -> Columns {
                guard let t = try RecordingReader.readTable(path: path, runID: runID, name: name) else {
                    throw FramelabError(.corrupt, "'\(path)' run '\(runID)': no '\(name)' table")
                }
                return try Columns(t, path)
            }
            let names = DetectionTables()
            let det = try table(names.detections.name), gt = try table(names.groundTruth.name)
            let fm = try table(names.frameMatches.name)
            let detections = try det.rows.map { row -> RecordedDetection in
                func point(_ x: String, _ y: String) throws -> ImagePoint? {
                    let px = try det.value(row, x), py = try det.value(row, y)
                    return px.isNaN || py.isNaN ? nil : ImagePoint(x: px, y: py)
                }
                let d = FaceDetection(box: BoundingBox(x: try det.value(row, "x"), y: try det.value(row, "y"),
                                                       width: try det.value(row, "width"), height: try det.value(row, "height")),
                                      score: try det.value(row, "score"), leftEye: try point("left_eye_x", "left_eye_y"),
                                      rightEye: try point("right_eye_x", "right_eye_y"), mouth: try point("mouth_x", "mouth_y"))
                return RecordedDetection(frame: try det.int(row, "frame"), detector: try det.int(row, "detector"),
                                         index: try det.int(row, "index"), detection: d, outcome: try det.value(row, "outcome"),
                                         face: try det.value(row, "face"), iou: try det.value(row, "iou"))
            }
            let faces = try gt.rows.map { row in
                RecordedFace(frame: try gt.int(row, "frame"), face: try gt.int(row, "face"),
                             truth: GroundTruthFace(box: FaceBox(x: try gt.value(row, "x"), y: try gt.value(row, "y"),
                                                                 width: try gt.value(row, "width"),
                                                                 height: try gt.value(row, "height")),
                                                    ignore: try gt.value(row, "ignore") != 0))
            }
            var durations: [FrameDetector: Double] = [:]
            for row in fm.rows {
                durations[FrameDetector(frame: try fm.int(row, "frame"), detector: try fm.int(row, "detector"))] =
                    try fm.value(row, "duration_ms")
            }
            return Recorded(detections: detections, groundTruth: faces, durationMs: durations)
        }
    }

    /// A (frame, detector) pair: the key of per-frame, per-detector records.
    public struct FrameDetector: Hashable, Sendable {
        public let frame: Int
        public let detector: Int
        public init(frame: Int, detector: Int) {
            self.frame = frame
            self.detector = detector
        }
    }
}

/// Column lookup by name in a recorded table; a missing column or a non-finite integer is
/// an error naming the file.
private struct Columns {
    private let index: [String: Int]
    private let table: String
    private let path: String
    let rows: [[Double]]

    init(_ table: RunTable, _ path: String) throws {
        index = Dictionary(table.columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        self.table = table.name
        self.path = path
        rows = table.rows
    }

    func value(_ row: [Double], _ name: String) throws -> Double {
        guard let c = index[name], c < row.count else {
            throw FramelabError(.corrupt, "'\(path)': table '\(table)' has no column '\(name)'")
        }
        return row[c]
    }

    func int(_ row: [Double], _ name: String) throws -> Int {
        let v = try value(row, name)
        guard let i = Int(exactly: v.rounded(.towardZero)), v.isFinite else {
            throw FramelabError(.corrupt, "'\(path)': table '\(table)' column '\(name)' holds \(v)")
        }
        return i
    }
}
