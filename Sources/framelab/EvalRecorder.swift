import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording
import Foundation

/// Writes one `framelab eval` into an HDF5 run: one stage per detector and one frame per
/// dataset image (timings and failures exactly as `framelab run` records them), then the
/// detection tables (every detection with its match, the ground truth, per-frame counts,
/// curves and metrics) under the same run group.
final class EvalRecorder {
    let path: String
    let runID: String
    let writer: RunWriter
    let dataset: FaceDataset

    init(path: String, runID: String, command: EvalCommand, dataset: FaceDataset, evaluator: DatasetEvaluator,
         extraAttributes: [String: AttributeValue] = [:]) throws {
        self.path = path
        self.runID = runID
        self.dataset = dataset
        let labels = evaluator.specs.indices.map { evaluator.label($0) }
        let attributes = RunContext.attributes(commandLine: quotedCommandLine).merging([
            "kind": .string("eval"),
            "source": .string("dataset:" + command.dataset),
            "dataset": .string(command.dataset),
            "detectors": .strings(labels),
            "threads": .int(Int64(command.threads)),
            "match_iou": .double(FaceMatching.defaultThreshold),
            // Frame i is image_paths[i]: notebooks draw boxes on the images from it.
            "image_paths": .strings(dataset.images.map { Self.absolute($0.path) }),
        ]) { $1 }.merging(extraAttributes) { $1 }
        writer = try RecordingFile(path: path).createRun(id: runID, attributes: attributes, stageNames: labels)
    }

    /// The run described by `attributes` (the merge of shard runs writes one this way).
    init(path: String, runID: String, attributes: [String: AttributeValue], labels: [String], dataset: FaceDataset) throws {
        self.path = path
        self.runID = runID
        self.dataset = dataset
        writer = try RecordingFile(path: path).createRun(id: runID, attributes: attributes, stageNames: labels)
    }

    private var tables = DetectionTables()

    /// The dataset-wide index of each image of `dataset`, when it is a slice (a shard, or
    /// the shards a merge found): frames are numbered by it, so they keep their place in
    /// the whole dataset (`image_paths[frame]`). nil: images are numbered from 0.
    var frameIndices: [Int]?

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    func record(_ result: DatasetEvaluator.Evaluation, summaries: [DetectorSummary]) throws {
        try record(frames: result.frames, wallSeconds: result.wallSeconds, summaries: summaries)
    }

    /// `frames`: per detector, per image of `dataset`.
    func record(frames results: [[FrameResult]], wallSeconds: Double, summaries: [DetectorSummary]) throws {
        for (position, image) in dataset.images.enumerated() {
            let i = frameIndices?[position] ?? position
            // Numbered by their place in the whole dataset (frame_matches takes it from `index`).
            let frames = results.map { detector -> FrameResult in
                var r = detector[position]
                r.index = i
                return r
            }
            let arrival = frames.map(\.startNs).min() ?? 0
            writer.append(FrameRecord(index: Int64(i), ptsNs: 0, arrivalNs: Int64(arrival), dropped: false,
                                      failed: frames.contains { $0.failure != nil }))
            tables.add(frame: i, faces: image.faces)
            for (k, frame) in frames.enumerated() {
                tables.add(frame, detector: k)
                if let reason = frame.failure {
                    writer.append(FailureRecord(frame: Int64(i), stage: Int32(k), reason: reason))
                    continue
                }
                writer.append(StageTimingRecord(frame: Int64(i), stage: Int32(k), startNs: Int64(frame.startNs),
                                                durationNs: Int64(frame.durationNs)))
                tables.add(frame: i, detector: k, frame.detections, outcomes: frame.match.outcomes)
            }
        }
        for (k, s) in summaries.enumerated() { tables.add(s, detector: k) }
        try writer.setAttribute("wall_seconds", .double(wallSeconds))
    }

    /// Adds the detection tables to the run's group, then ends the run.
    func finish(status: String) throws {
        for table in tables.all { try writer.addTable(table) }
        try writer.finish(status: status)
    }
}
