import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabPipeline
import FramelabRecording

/// Collects what `framelab run --detector` stages find, frame by frame, for the run's
/// detection tables; on a `dataset:` source it also matches them to the annotations.
/// Fed with the pipeline's events on the pipeline's caller thread.
final class RunDetectionLog {
    /// Detector stages by their position among all stages (the `detector` column).
    private let stages: [Int: DetectorStage]
    private let dataset: FaceDataset?
    private var tables = DetectionTables()
    private var recordedFaces = Set<Int>()

    init(stages: [any PipelineStage], source: any FrameSource) {
        var found: [Int: DetectorStage] = [:]
        for (i, s) in stages.enumerated() { if let d = s as? DetectorStage { found[i] = d } }
        self.stages = found
        dataset = (source as? DatasetSource)?.dataset
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
    }

    /// The tables to add to the run: detections always; ground truth and frame matches on datasets.
    var runTables: [RunTable] {
        dataset == nil ? [tables.detections] : [tables.detections, tables.groundTruth, tables.frameMatches]
    }

    /// One line per detector stage for the summary.
    var summary: [String] {
        stages.keys.sorted().map { i in "\(stages[i]!.name): \(stages[i]!.totalFaces) faces found" }
    }
}
