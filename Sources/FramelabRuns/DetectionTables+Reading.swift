import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabRecording

extension DetectionTables {
    /// A run's per-frame detection tables read back typed (`detections`, `ground_truth`,
    /// `frame_matches`) and its dataset images, from a version-2 file or a version-1 one;
    /// a missing table or column is an error naming the file and run.
    public struct Recorded: Sendable {
        public let detections: [DetectionRow]
        public let groundTruth: [GroundTruthRow]
        /// `duration_ns` of each (frame, detector) pair.
        public let durationNs: [FrameDetector: Int64]
        /// The absolute path of each frame's image (frames keep dataset-wide numbers).
        public let imagePaths: [Int: String]

        /// The tables of `run`, read from `path` (the caller has the run's records already).
        public static func read(path: String, run: RunData) throws -> Recorded {
            run.schemaVersion == 1 ? try readSchema1(path: path, run: run) : try readSchema2(path: path, run: run)
        }

        private static func readSchema2(path: String, run: RunData) throws -> Recorded {
            func rows<R: TableRow>(_ type: R.Type) throws -> [R] {
                guard let rows = try RecordingReader.readRows(R.self, path: path, runID: run.id) else {
                    throw FramelabError(.corrupt, "'\(path)' run '\(run.id)': no '\(R.layout.name)' table")
                }
                return rows
            }
            var durations: [FrameDetector: Int64] = [:]
            for m in try rows(FrameMatchRow.self) {
                durations[FrameDetector(frame: Int(m.frame), detector: Int(m.detector))] = m.durationNs
            }
            let root = DatasetPaths.root(of: run)
            var paths: [Int: String] = [:]
            for image in try rows(ImageRow.self) { paths[Int(image.frame)] = DatasetPaths.absolute(image.path, root: root) }
            return Recorded(detections: try rows(DetectionRow.self),
                            groundTruth: try withWiderSubsets(try rows(GroundTruthRow.self), path: path, run: run),
                            durationNs: durations, imagePaths: paths)
        }

        /// The faces with their WIDER subsets from the optional `wider_subsets` table (absent
        /// in older files and for ground truth without subsets: the faces then carry none).
        private static func withWiderSubsets(_ faces: [GroundTruthRow], path: String, run: RunData) throws -> [GroundTruthRow] {
            guard let subsets = try RecordingReader.readRows(WiderSubsetRow.self, path: path, runID: run.id) else { return faces }
            var byFace: [FrameFace: WiderSubsets] = [:]
            for s in subsets { byFace[FrameFace(frame: s.frame, face: s.face)] = s.subsets }
            return faces.map { row in
                var row = row
                row.truth.widerSubsets = byFace[FrameFace(frame: row.frame, face: row.face)]
                return row
            }
        }

        private struct FrameFace: Hashable {
            let frame: Int64, face: Int32
        }

        /// Version 1: two-dimensional float tables named by their `columns`, paths in `image_paths`.
        private static func readSchema1(path: String, run: RunData) throws -> Recorded {
            func table(_ name: String) throws -> Schema1Columns {
                guard let t = try RecordingReader.readSchema1Table(path: path, runID: run.id, name: name) else {
                    throw FramelabError(.corrupt, "'\(path)' run '\(run.id)': no '\(name)' table")
                }
                return Schema1Columns(t, path)
            }
            let det = try table("detections"), gt = try table("ground_truth"), fm = try table("frame_matches")
            let detections = try det.rows.map { row -> DetectionRow in
                func v(_ name: String) throws -> Double { try det.value(row, name) }
                func point(_ x: String, _ y: String) throws -> ImagePoint? {
                    let px = try v(x), py = try v(y)
                    return px.isNaN || py.isNaN ? nil : ImagePoint(x: px, y: py)
                }
                let d = FaceDetection(box: BoundingBox(x: try v("x"), y: try v("y"), width: try v("width"), height: try v("height")),
                                      score: try v("score"), leftEye: try point("left_eye_x", "left_eye_y"),
                                      rightEye: try point("right_eye_x", "right_eye_y"), mouth: try point("mouth_x", "mouth_y"))
                let outcome = Int8(exactly: try det.int(row, "outcome")).flatMap(DetectionOutcome.init(rawValue:)) ?? .unmatched
                return DetectionRow(frame: Int64(try det.int(row, "frame")), detector: Int32(try det.int(row, "detector")),
                                    index: Int32(try det.int(row, "index")), detection: d, outcome: outcome,
                                    face: Int32(try det.int(row, "face")), iou: try v("iou"))
            }
            let faces = try gt.rows.map { row in
                GroundTruthRow(frame: Int64(try gt.int(row, "frame")), face: Int32(try gt.int(row, "face")),
                               truth: GroundTruthFace(box: FaceBox(x: try gt.value(row, "x"), y: try gt.value(row, "y"),
                                                                   width: try gt.value(row, "width"),
                                                                   height: try gt.value(row, "height")),
                                                      ignore: try gt.value(row, "ignore") != 0))
            }
            var durations: [FrameDetector: Int64] = [:]
            for row in fm.rows {
                durations[FrameDetector(frame: try fm.int(row, "frame"), detector: try fm.int(row, "detector"))] =
                    Int64((try fm.value(row, "duration_ms") * 1e6).rounded())
            }
            var paths: [Int: String] = [:]
            if case .strings(let list)? = run.attributes["image_paths"] {
                for (i, p) in list.enumerated() { paths[i] = p }
            }
            return Recorded(detections: detections, groundTruth: faces, durationNs: durations, imagePaths: paths)
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

/// Column lookup by name in a version-1 table; a missing column or a non-finite integer
/// is an error naming the file.
private struct Schema1Columns {
    private let index: [String: Int]
    private let table: String
    private let path: String
    let rows: [[Double]]

    init(_ table: Schema1Table, _ path: String) {
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
        guard v.isFinite, let i = Int32(exactly: v.rounded(.towardZero)) else {
            throw FramelabError(.corrupt, "'\(path)': table '\(table)' column '\(name)' holds \(v)")
        }
        return Int(i)
    }
}
