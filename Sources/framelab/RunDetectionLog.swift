import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabPipeline
import FramelabRecording

/// Records what `framelab run --detector` stages find, frame by frame, into the run's
/// detection tables; on a `dataset:` source it also matches them to the annotations.
/// Fed with the pipeline's events on the pipeline's caller thread.
///
/// The tables are growing tables created when the run starts: each frame's rows are
/// queued as they are made and written by the run's background flush, so a run that is
/// killed keeps the detections made before its last flush, as it keeps its timings.
final class RunDetectionLog {
    /// Detector stages by their position among all stages (the `detector` column).
    private let stages: [Int: DetectorStage]
    private let hasGroundTruth: Bool
    private let writer: RunWriter?
    /// Faces found so far, per detector stage, for the summary.
    private var totals: [Int: Int] = [:]
    /// Detector timings of the frame in progress (its events come before its outcome).
    private var durations: [Int: UInt64] = [:]

    init(stages: [any PipelineStage], source: any FrameSource, writer: RunWriter?) throws {
        var found: [Int: DetectorStage] = [:]
        for (i, s) in stages.enumerated() { if let d = s as? DetectorStage { found[i] = d } }
        self.stages = found
        hasGroundTruth = source is DatasetSource
        self.writer = writer
        if let writer, !found.isEmpty {
            for table in runTables(DetectionTables()) { try writer.addGrowingTable(name: table.name, columns: table.columns) }
        }
    }

    var isEmpty: Bool { stages.isEmpty }

    /// Records a processed frame's detections (they travel with its outcome), matched to
    /// its ground truth when the source attached one.
    func record(_ event: PipelineEvent) {
        switch event {
        case .timing(_, let stage, _, let duration) where stages[stage] != nil:
            durations[stage] = duration
        case .frame(let outcome) where !outcome.dropped:
            defer { durations = [:] }
            guard !stages.isEmpty else { return }
            var tables = DetectionTables()
            let truth = outcome.annotations.all(AnnotatedImage.self).first
            if let truth { tables.add(frame: outcome.index, faces: truth.faces) }
            for found in outcome.annotations.all(DetectedFaces.self) {
                totals[found.stage, default: 0] += found.faces.count
                guard let truth else {
                    tables.add(frame: outcome.index, detector: found.stage, found.faces, outcomes: nil)
                    continue
                }
                let match = FaceMatching.match(found.faces, truth.faces)
                tables.add(frame: outcome.index, detector: found.stage, found.faces, outcomes: match.outcomes)
                tables.add(FrameResult(index: outcome.index, name: truth.name, failure: nil, detections: found.faces,
                                       match: match, startNs: 0, durationNs: durations[found.stage] ?? 0),
                           detector: found.stage)
            }
            for table in runTables(tables) where !table.rows.isEmpty { writer?.append(rows: table.rows, to: table.name) }
        default:
            break
        }
    }

    /// The tables of the run: detections always; ground truth and frame matches on datasets.
    private func runTables(_ t: DetectionTables) -> [RunTable] {
        hasGroundTruth ? [t.detections, t.groundTruth, t.frameMatches] : [t.detections]
    }

    /// One line per detector stage for the summary.
    var summary: [String] {
        stages.keys.sorted().map { i in "\(stages[i]!.name): \(totals[i] ?? 0) faces found" }
    }
}
