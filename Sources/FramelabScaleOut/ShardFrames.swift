import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording
import FramelabRuns

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
        var faces: [Int: [(Int, GroundTruthFace)]] = [:]
        for f in run.tables.groundTruth { faces[Int(f.frame), default: []].append((Int(f.face), f.truth)) }
        var found: [Key: [DetectionRow]] = [:]
        for d in run.tables.detections { found[Key(Int(d.frame), Int(d.detector)), default: []].append(d) }
        let durationNs = run.tables.durationNs
        var timings: [Key: StageTimingRecord] = [:]
        for t in run.run.timings { timings[Key(Int(t.frame), Int(t.stage))] = t }
        var failures: [Key: String] = [:]
        for f in run.run.failures { failures[Key(Int(f.frame), Int(f.stage))] = f.reason }

        return try run.run.frames.map { record -> Item in
            let i = Int(record.index)
            let truth = (faces[i] ?? []).sorted { $0.0 < $1.0 }.map(\.1)
            let path = paths[i] ?? ""
            let results = try (0..<detectors).map { k -> FrameResult in
                let key = Key(i, k)
                if let reason = failures[key] {
                    let ns = durationNs[.init(frame: i, detector: k)] ?? 0
                    return FrameResult(index: i, name: path, failure: reason, detections: [], match: FaceMatching.match([], truth),
                                       startNs: UInt64(max(0, record.arrivalNs)), durationNs: UInt64(max(0, ns)), faces: truth)
                }
                // Saved predictions (eval --predictions) are recorded without timings.
                let untimed = PredictionSet.isPredictionLabel(run.labels[k])
                guard let timing = timings[key] ?? (untimed ? StageTimingRecord(frame: Int64(i), stage: Int32(k), startNs: 0,
                                                                                 durationNs: 0) : nil) else {
                    throw FramelabError(.corrupt, "'\(run.path)': frame \(i) has no timing and no failure for detector \(k)")
                }
                let rows = (found[key] ?? []).sorted { $0.index < $1.index }
                let detections = rows.map(\.detection)
                let match = FaceMatching.match(detections, truth)
                for (n, row) in rows.enumerated() where !row.agrees(with: match.outcomes[n]) {
                    throw FramelabError(.corrupt, "'\(run.path)': frame \(i), detector \(run.labels[k]), detection \(n): the recorded "
                                        + "match differs from this Framelab's matching (recorded by another version?)")
                }
                // Everything a single run's FrameResult carries is rebuilt here, the faces too (FDDB's
                // ROC re-matches with them): the merge-equals-single tests check it.
                var result = FrameResult(index: i, name: path, failure: nil, detections: detections, match: match,
                                         startNs: UInt64(max(0, timing.startNs)), durationNs: UInt64(max(0, timing.durationNs)),
                                         faces: truth)
                result.timed = !untimed
                return result
            }
            return (i, AnnotatedImage(path: path, name: path, faces: truth), results)
        }
    }

    private struct Key: Hashable {
        let frame: Int, detector: Int
        init(_ frame: Int, _ detector: Int) { self.frame = frame; self.detector = detector }
    }
}
