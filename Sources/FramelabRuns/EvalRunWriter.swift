import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording
import Foundation

/// Writes one `framelab eval` (or a merge of shard runs) into an HDF5 run: one stage per
/// detector and one frame per dataset image (timings and failures exactly as
/// `framelab run` records them), the elements, the dataset's images, and the detection
/// tables (every detection with its match, the ground truth, per-frame counts, curves and
/// metrics). The run and all its tables are created at once, before the first image.
public final class EvalRunWriter {
    public let path: String
    public let runID: String
    /// The run's writer, safe to use from any thread: `onWriteError`, `abandon`.
    public let writer: RunWriter
    private let dataset: FaceDataset
    /// The dataset-wide index of each image of `dataset` (a shard, or the shards a merge
    /// found): frames are numbered by it, so they keep their place in the whole dataset.
    private let frameIndices: [Int]

    /// The attributes of an eval run: `context` (`RunContext`) plus what describes the
    /// evaluation: dataset, detectors, workers, matching threshold.
    public static func attributes(context: [String: AttributeValue], dataset: String,
                                  labels: [String], workers: Int,
                                  protocols: [EvaluationProtocol] = [.framelab]) -> [String: AttributeValue] {
        context.merging([
            "kind": .string("eval"),
            "source": .string("dataset:" + dataset),
            "dataset": .string(dataset),
            "detectors": .strings(labels),
            "workers": .int(Int64(workers)),
            "match_iou": .double(FaceMatching.defaultThreshold),
            protocolsAttribute: .strings(protocols.map(\.rawValue)),
        ]) { $1 }
    }

    /// The run attribute listing the protocols it was scored with (`framelab` alone when absent).
    public static let protocolsAttribute = "protocols"

    /// The protocols a recorded eval run was scored with; unknown names are skipped.
    public static func protocols(of run: RunData) -> [EvaluationProtocol] {
        guard case .strings(let names)? = run.attributes[protocolsAttribute] else { return [.framelab] }
        return names.compactMap(EvaluationProtocol.init(rawValue:))
    }

    /// Creates the run: one stage per detector label. `images`: every image of the whole
    /// dataset (a shard's frames keep dataset-wide numbers), recorded in `images` relative
    /// to `dataset_root`; `frameIndices`: the position in `images` of each image of
    /// `dataset` (nil: the same images, numbered from 0).
    public init(path: String, runID: String, attributes: [String: AttributeValue], labels: [String],
                dataset: FaceDataset, images: [String]? = nil, frameIndices: [Int]? = nil,
                elements: [ElementRow]) throws {
        self.path = path
        self.runID = runID
        self.dataset = dataset
        self.frameIndices = frameIndices ?? Array(dataset.images.indices)
        let all = images ?? dataset.images.map(\.path)
        let (root, imageRows) = DatasetPaths.rows(all, frames: Array(all.indices))
        var attributes = attributes
        attributes[DatasetPaths.rootAttribute] = .string(root)
        writer = try RecordingFile(path: path).createRun(
            id: runID, attributes: attributes, stageNames: labels,
            tables: [ElementRow.layout] + DetectionTables.layouts(annotated: true, evaluation: true,
                                                                   widerSubsets: dataset.hasWiderSubsets))
        writer.append(elements)
        writer.append(imageRows)
    }

    /// A run event (a merge says which shards it merged).
    public func note(kind: String, detail: String, frame: Int) {
        writer.append(EventRecord(frame: Int64(frame), timeNs: Int64(MonotonicClock.now()), kind: kind, detail: detail))
    }

    public func record(_ result: DatasetEvaluator.Evaluation, summaries: [DetectorSummary],
                       protocolScores: [[ProtocolScores]] = []) {
        record(frames: result.frames, summaries: summaries, protocolScores: protocolScores)
    }

    /// `frames`: per detector, per image of `dataset`; `protocolScores`: per detector, its
    /// scores under each official protocol.
    public func record(frames results: [[FrameResult]], summaries: [DetectorSummary], protocolScores: [[ProtocolScores]] = []) {
        for position in dataset.images.indices { recordImage(position, results.map { $0[position] }) }
        recordScores(summaries: summaries, protocolScores: protocolScores)
    }

    /// One image's rows as soon as it is evaluated (`framelab eval` records as it goes, so an
    /// interrupted evaluation keeps what it did): its frame, timings and failures, ground
    /// truth, detections and matches. `position`: the image's place in `dataset`;
    /// `frames`: each detector's result on it.
    public func recordImage(_ position: Int, _ results: [FrameResult]) {
        let image = dataset.images[position]
        let i = frameIndices[position]
        // Numbered by their place in the whole dataset (frame_matches takes it from `index`).
        let frames = results.map { r -> FrameResult in
            var r = r
            r.index = i
            return r
        }
        // The image "arrives" when its first detector starts; its latency runs to the end of the last.
        // Saved predictions have no times: they take no part.
        let ran = frames.filter { $0.failure == nil && $0.timed }
        let arrival = frames.filter(\.timed).map(\.startNs).min() ?? 0
        let done = ran.map { $0.startNs &+ $0.durationNs }.max()
        writer.append(FrameRecord(index: Int64(i), ptsNs: 0, arrivalNs: Int64(arrival), dropped: false,
                                  failed: frames.contains { $0.failure != nil }, queueWaitNs: done == nil ? -1 : 0,
                                  latencyNs: done.map { Int64(clamping: $0 &- arrival) } ?? -1))
        var tables = DetectionTables()
        tables.add(frame: i, faces: image.faces)
        tables.addWiderSubsets(frame: i, faces: image.faces)
        for (k, frame) in frames.enumerated() {
            tables.add(frame, detector: k)
            if let reason = frame.failure {
                writer.append(FailureRecord(frame: Int64(i), stage: Int32(k), reason: reason))
                continue
            }
            if frame.timed {
                writer.append(StageTimingRecord(frame: Int64(i), stage: Int32(k), startNs: Int64(frame.startNs),
                                                durationNs: Int64(frame.durationNs)))
            }
            tables.add(frame: i, detector: k, frame.detections, outcomes: frame.match.outcomes)
        }
        tables.flush(to: writer)
    }

    /// The scores over the images recorded: per detector its metrics and curves, and its
    /// scores under each official protocol.
    public func recordScores(summaries: [DetectorSummary], protocolScores: [[ProtocolScores]] = []) {
        var tables = DetectionTables()
        for (k, s) in summaries.enumerated() { tables.add(s, detector: k) }
        for (k, scores) in protocolScores.enumerated() {
            for s in scores { tables.add(s, detector: k) }
        }
        tables.flush(to: writer)
    }

    /// Writes what is queued and ends the run; `wallSeconds`: the evaluation's wall time.
    public func finish(status: String, wallSeconds: Double? = nil) throws {
        var attributes: [String: AttributeValue] = [:]
        if let wallSeconds, wallSeconds.isFinite { attributes["wall_ns"] = .int(Int64((wallSeconds * 1e9).rounded())) }
        try writer.finish(status: status, attributes: attributes)
    }
}
