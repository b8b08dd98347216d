import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording
import Foundation

/// Writes one `framelab eval` (or a merge of shard runs) into an HDF5 run: one stage per
/// detector and one frame per dataset image (timings and failures exactly as
/// `framelab run` records them), then the detection tables (every detection with its
/// match, the ground truth, per-frame counts, curves and metrics) under the same run group.
public final class EvalRunWriter {
    public let path: String
    public let runID: String
    private let writer: RunWriter
    private let dataset: FaceDataset
    private var tables = DetectionTables()

    /// The dataset-wide index of each image of `dataset`, when it is a slice (a shard, or
    /// the shards a merge found): frames are numbered by it, so they keep their place in
    /// the whole dataset (`image_paths[frame]`). nil: images are numbered from 0.
    public var frameIndices: [Int]?

    /// The attributes of an eval run: `context` (`RunContext`) plus what describes the
    /// evaluation: dataset, detectors, workers, matching threshold, image paths.
    public static func attributes(context: [String: AttributeValue], dataset: String, loaded: FaceDataset,
                                  labels: [String], workers: Int) -> [String: AttributeValue] {
        context.merging([
            "kind": .string("eval"),
            "source": .string("dataset:" + dataset),
            "dataset": .string(dataset),
            "detectors": .strings(labels),
            "threads": .int(Int64(workers)),
            "match_iou": .double(FaceMatching.defaultThreshold),
            // Frame i is image_paths[i]: notebooks draw boxes on the images from it.
            "image_paths": .strings(loaded.images.map { absolute($0.path) }),
        ]) { $1 }
    }

    /// Creates the run: one stage per detector label.
    public init(path: String, runID: String, attributes: [String: AttributeValue], labels: [String],
                dataset: FaceDataset) throws {
        self.path = path
        self.runID = runID
        self.dataset = dataset
        writer = try RecordingFile(path: path).createRun(id: runID, attributes: attributes, stageNames: labels)
    }

    /// Sets (or replaces) run attributes, in name order.
    public func setAttributes(_ attributes: [String: AttributeValue]) throws {
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { try writer.setAttribute(name, value) }
    }

    /// A run event (a merge says which shards it merged).
    public func note(kind: String, detail: String, frame: Int) {
        writer.append(EventRecord(frame: Int64(frame), timeNs: Int64(MonotonicClock.now()), kind: kind, detail: detail))
    }

    /// The absolute form of a dataset path, as `image_paths` records it.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    public func record(_ result: DatasetEvaluator.Evaluation, summaries: [DetectorSummary]) throws {
        try record(frames: result.frames, wallSeconds: result.wallSeconds, summaries: summaries)
    }

    /// `frames`: per detector, per image of `dataset`.
    public func record(frames results: [[FrameResult]], wallSeconds: Double, summaries: [DetectorSummary]) throws {
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
    public func finish(status: String) throws {
        for table in tables.all { try writer.addTable(table) }
        try writer.finish(status: status)
    }
}
