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
    private let dataset: FaceDataset?
    private let writer: RunWriter?
    /// Rows made for the event being handled, handed to the writer right after.
    private var tables = DetectionTables()
    private var recordedFaces = Set<Int>()

    init(stages: [any PipelineStage], source: any FrameSource, writer: RunWriter?) throws {
        var found: [Int: DetectorStage] = [:]
        for (i, s) in stages.enumerated() { if let d = s as? DetectorStage { found[i] = d } }
        self.stages = found
        dataset = (source as? DatasetSource)?.dataset
        self.writer = writer
        if let writer, !found.isEmpty {
            for table in runTables(DetectionTables()) { try writer.addGrowingTable(name: table.name, columns: table.columns) }
        }
    }

    var isEmpty: Bool { stages.isEmpty }

    func record(_ event: PipelineEvent) {
        guard case .timing(let frame, let stage, _, let duration) = event, let d = stages[stage], d.lastFrame == frame else {
            return
        }
        if let dataset, frame < dataset.images.count {
            let faces = dataset.images[frame].faces
            if recordedFaces.insert(frame).inserted { tables.add(frame: frame, faces: faces) }
            let match = FaceMatching.match(d.lastDetections, faces)
            tables.add(frame: frame, detector: stage, d.lastDetections, outcomes: match.outcomes)
            tables.add(FrameResult(index: frame, name: dataset.images[frame].name, failure: nil, detections: d.lastDetections,
                                   match: match, startNs: 0, durationNs: duration), detector: stage)
        } else {
            tables.add(frame: frame, detector: stage, d.lastDetections, outcomes: nil)
        }
        for table in runTables(tables) where !table.rows.isEmpty { writer?.append(rows: table.rows, to: table.name) }
        tables = DetectionTables()
    }

    /// The tables of the run: detections always; ground truth and frame matches on datasets.
    private func runTables(_ t: DetectionTables) -> [RunTable] {
        dataset == nil ? [t.detections] : [t.detections, t.groundTruth, t.frameMatches]
    }

    /// One line per detector stage for the summary.
    var summary: [String] {
        stages.keys.sorted().map { i in "\(stages[i]!.name): \(stages[i]!.totalFaces) faces found" }
    }
}
