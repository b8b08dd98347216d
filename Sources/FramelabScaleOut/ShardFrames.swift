import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording

/// Rebuilds a shard's per-frame results from what it recorded: frames, timings, failures,
/// and the detections, ground_truth and frame_matches tables. Matching is redone with
/// `FaceMatching` on the recorded boxes and checked against the recorded outcome of
/// every detection, so a shard recorded with another matching rule is refused rather
/// than mixed in.
enum ShardFrames {
    typealias Item = (index: Int, image: AnnotatedImage, frames: [FrameResult])

    static func rebuild(_ run: ShardRun) throws -> [Item] {
        let detectors = run.labels.count
        let paths = run.imagePaths
        let det = try Columns(run.detections, run.path)
        let gt = try Columns(run.groundTruth, run.path)
        let fm = try Columns(run.frameMatches, run.path)

        var faces: [Int: [(Int, GroundTruthFace)]] = [:]
        for row in run.groundTruth.rows {
            let face = GroundTruthFace(box: FaceBox(x: try gt.value(row, "x"), y: try gt.value(row, "y"),
                                                    width: try gt.value(row, "width"), height: try gt.value(row, "height")),
                                       ignore: try gt.value(row, "ignore") != 0)
            faces[try gt.int(row, "frame"), default: []].append((try gt.int(row, "face"), face))
        }
        var found: [Key: [(Int, FaceDetection, [Double])]] = [:]
        for row in run.detections.rows {
            func point(_ x: String, _ y: String) throws -> ImagePoint? {
                let px = try det.value(row, x), py = try det.value(row, y)
                return px.isNaN || py.isNaN ? nil : ImagePoint(x: px, y: py)
            }
            let d = FaceDetection(box: BoundingBox(x: try det.value(row, "x"), y: try det.value(row, "y"),
                                                   width: try det.value(row, "width"), height: try det.value(row, "height")),
                                  score: try det.value(row, "score"), leftEye: try point("left_eye_x", "left_eye_y"),
                                  rightEye: try point("right_eye_x", "right_eye_y"), mouth: try point("mouth_x", "mouth_y"))
            let recorded = [try det.value(row, "outcome"), try det.value(row, "face"), try det.value(row, "iou")]
            found[Key(try det.int(row, "frame"), try det.int(row, "detector")), default: []]
                .append((try det.int(row, "index"), d, recorded))
        }
        var durationMs: [Key: Double] = [:]
        for row in run.frameMatches.rows {
            durationMs[Key(try fm.int(row, "frame"), try fm.int(row, "detector"))] = try fm.value(row, "duration_ms")
        }
        var timings: [Key: StageTimingRecord] = [:]
        for t in run.run.timings { timings[Key(Int(t.frame), Int(t.stage))] = t }
        var failures: [Key: String] = [:]
        for f in run.run.failures { failures[Key(Int(f.frame), Int(f.stage))] = f.reason }

        return try run.run.frames.map { record -> Item in
            let i = Int(record.index)
            let truth = (faces[i] ?? []).sorted { $0.0 < $1.0 }.map(\.1)
            let path = i < paths.count ? paths[i] : ""
            let results = try (0..<detectors).map { k -> FrameResult in
                let key = Key(i, k)
                if let reason = failures[key] {
                    let ms = durationMs[key] ?? 0
                    return FrameResult(index: i, name: path, failure: reason, detections: [], match: FaceMatching.match([], []),
                                       startNs: UInt64(max(0, record.arrivalNs)), durationNs: UInt64(max(0, (ms * 1e6).rounded())))
                }
                guard let timing = timings[key] else {
                    throw FramelabError(.corrupt, "'\(run.path)': frame \(i) has no timing and no failure for detector \(k)")
                }
                let rows = (found[key] ?? []).sorted { $0.0 < $1.0 }
                let detections = rows.map(\.1)
                let match = FaceMatching.match(detections, truth)
                for (n, row) in rows.enumerated() where !Self.agrees(match.outcomes[n], row.2) {
                    throw FramelabError(.corrupt, "'\(run.path)': frame \(i), detector \(run.labels[k]), detection \(n): the recorded "
                                        + "match differs from this Framelab's matching (recorded by another version?)")
                }
                // Everything a single run's FrameResult carries is rebuilt here, the faces too (FDDB's
                // ROC re-matches with them): the merge-equals-single tests check it.
                return FrameResult(index: i, name: path, failure: nil, detections: detections, match: match,
                                   startNs: UInt64(max(0, timing.startNs)), durationNs: UInt64(max(0, timing.durationNs)),
                                   faces: truth)
            }
            return (i, AnnotatedImage(path: path, name: path, faces: truth), results)
        }
    }

    /// Whether a recomputed outcome equals the recorded (outcome, face, iou) columns.
    private static func agrees(_ outcome: MatchOutcome, _ recorded: [Double]) -> Bool {
        switch outcome {
        case .truePositive(let face, let iou): return recorded[0] == 1 && recorded[1] == Double(face) && recorded[2] == iou
        case .falsePositive: return recorded[0] == 0
        case .ignored: return recorded[0] == 2
        }
    }

    private struct Key: Hashable {
        let frame: Int, detector: Int
        init(_ frame: Int, _ detector: Int) { self.frame = frame; self.detector = detector }
    }
}

/// Column lookup by name in a recorded table; a missing column is an error naming the file.
struct Columns {
    private let index: [String: Int]
    private let table: String
    private let path: String

    init(_ table: RunTable, _ path: String) throws {
        index = Dictionary(table.columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        self.table = table.name
        self.path = path
    }

    func value(_ row: [Double], _ name: String) throws -> Double {
        guard let c = index[name] else { throw FramelabError(.corrupt, "'\(path)': table '\(table)' has no column '\(name)'") }
        return row[c]
    }

    func int(_ row: [Double], _ name: String) throws -> Int {
        let v = try value(row, name)
        guard v.isFinite else { throw FramelabError(.corrupt, "'\(path)': table '\(table)' column '\(name)' holds \(v)") }
        return Int(v)
    }
}
