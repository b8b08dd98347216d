import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabPipeline
import FramelabRecording
import FramelabSources

/// Records a pipeline run into an HDF5 file as the engine delivers its events: frames,
/// stage timings, failures and source events, and — when the run has detector stages —
/// the detections that travel with each frame (matched to the frame's ground truth when a
/// dataset source attached one). See docs/hdf5-schema.md.
///
/// Records are queued as events arrive and written by the run's background flush, so a
/// run that is killed keeps everything up to its last flush, detections included.
public final class RunRecorder {
    public let id: String
    public var path: String { writer.path }
    /// The run's writer, safe to use from any thread: `onWriteError`, `abandon`.
    public let writer: RunWriter
    /// Detector stages' positions; empty: no detection tables.
    private let detectorStages: Set<Int>
    private let hasGroundTruth: Bool
    /// Detector timings of the frame in progress (its events come before its outcome).
    private var durations: [Int: UInt64] = [:]

    /// Creates the run (its file too, if missing) with `attributes`, one stage per element
    /// of `stages`, its `elements` rows, and the detection tables the stages call for (with
    /// the dataset's images on a dataset source), all at once before the first frame.
    public init(path: String, id: String, attributes: [String: AttributeValue], stages: [any PipelineStage],
                source: any FrameSource, elements: [ElementRow]) throws {
        self.id = id
        detectorStages = Set(stages.indices.filter { stages[$0] is DetectorStage })
        let dataset = (source as? DatasetSource)?.dataset
        hasGroundTruth = dataset != nil
        var attributes = attributes
        var images: [ImageRow] = []
        if let dataset {
            let (root, rows) = DatasetPaths.rows(dataset.images.map(\.path), frames: Array(dataset.images.indices))
            attributes[DatasetPaths.rootAttribute] = .string(root)
            images = rows
        }
        let tables = detectorStages.isEmpty ? [] : DetectionTables.layouts(annotated: hasGroundTruth, evaluation: false)
        writer = try RecordingFile(path: path).createRun(id: id, attributes: attributes, stageNames: stages.map(\.name),
                                                         tables: [ElementRow.layout] + tables)
        writer.append(elements)
        if !tables.isEmpty { writer.append(images) }
    }

    public func record(_ event: PipelineEvent) {
        switch event {
        case .frame(let f):
            writer.append(FrameRecord(index: Int64(f.index), ptsNs: f.pts, arrivalNs: Int64(f.arrival),
                                      dropped: f.dropped, failed: f.failed,
                                      queueWaitNs: f.queueWait.map { Int64(clamping: $0) } ?? -1,
                                      latencyNs: f.latency.map { Int64(clamping: $0) } ?? -1))
            if !f.dropped && !detectorStages.isEmpty { recordDetections(f) }
            durations = [:]
        case .timing(let frame, let stage, let start, let duration):
            writer.append(StageTimingRecord(frame: Int64(frame), stage: Int32(stage), startNs: Int64(start),
                                            durationNs: Int64(duration)))
            if detectorStages.contains(stage) { durations[stage] = duration }
        case .failure(let frame, let stage, let reason):
            writer.append(FailureRecord(frame: Int64(frame), stage: Int32(stage), reason: reason))
        case .sourceEvent(let kind, let detail, let frame, let time):
            note(kind: kind, detail: detail, frame: frame, time: time)
        case .output:
            break
        }
    }

    /// Something an output did worth keeping (a snapshot file, a recording that stopped).
    public func note(kind: String, detail: String, frame: Int, time: UInt64 = MonotonicClock.now()) {
        writer.append(EventRecord(frame: Int64(frame), timeNs: Int64(time), kind: kind, detail: detail))
    }

    /// Writes what is queued and ends the run with `status` and the `attributes` known only at the end.
    public func finish(status: String, attributes: [String: AttributeValue] = [:]) throws {
        try writer.finish(status: status, attributes: attributes)
    }

    /// A processed frame's detections, matched to its ground truth when it has one.
    private func recordDetections(_ outcome: FrameOutcome) {
        var tables = DetectionTables()
        let truth = outcome.annotations.all(AnnotatedImage.self).first
        if let truth { tables.add(frame: outcome.index, faces: truth.faces) }
        for found in outcome.annotations.all(DetectedFaces.self) {
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
        tables.flush(to: writer)
    }
}
