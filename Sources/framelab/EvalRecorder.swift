import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording
import Foundation

/// Writes one `framelab eval` into an HDF5 run: one stage per detector, one frame per
/// dataset image (timings and failures as for `framelab run`), and the detection tables
/// (docs/hdf5-schema.md): every detection with its match, the ground truth, per-frame
/// counts, and per-detector PR and FDDB ROC curves and summary metrics.
final class EvalRecorder {
    let writer: RunWriter
    let dataset: FaceDataset

    init(path: String, runID: String, command: EvalCommand, dataset: FaceDataset, evaluator: DatasetEvaluator) throws {
        self.dataset = dataset
        let labels = evaluator.specs.indices.map { evaluator.label($0) }
        let attributes: [String: AttributeValue] = [
            "started_utc": .string(HostInfo.utcNowISO8601()),
            "host": .string(HostInfo.hostName),
            "cpu_model": .string(HostInfo.cpuModel),
            "cpu_cores": .int(Int64(HostInfo.coreCount)),
            "framelab_version": .string(FramelabVersion.string),
            "git_commit": .string(FramelabVersionInfo.gitCommit ?? "unknown"),
            "command_line": .string(quotedCommandLine),
            "kind": .string("eval"),
            "source": .string("dataset:" + command.dataset),
            "dataset": .string(command.dataset),
            "detectors": .strings(labels),
            "threads": .int(Int64(command.threads)),
            "match_iou": .double(FaceMatching.defaultThreshold),
        ]
        writer = try RecordingFile(path: path).createRun(id: runID, attributes: attributes, stageNames: labels)
    }

    func record(_ result: DatasetEvaluator.Evaluation, summaries: [DetectorSummary]) throws {
        for (i, image) in dataset.images.enumerated() {
            let frames = result.frames.map { $0[i] }
            let arrival = frames.map(\.startNs).min() ?? 0
            writer.append(FrameRecord(index: Int64(i), ptsNs: 0, arrivalNs: Int64(arrival), dropped: false,
                                      failed: frames.contains { $0.failure != nil }))
            for (f, face) in image.faces.enumerated() {
                writer.append(GroundTruthRecord(frame: Int64(i), face: Int32(f), x: face.box.x, y: face.box.y,
                                                width: face.box.width, height: face.box.height, ignore: face.ignore))
            }
            for (k, frame) in frames.enumerated() {
                if let reason = frame.failure {
                    writer.append(FailureRecord(frame: Int64(i), stage: Int32(k), reason: reason))
                    continue
                }
                writer.append(StageTimingRecord(frame: Int64(i), stage: Int32(k), startNs: Int64(frame.startNs),
                                                durationNs: Int64(frame.durationNs)))
                let m = frame.match
                writer.append(FrameMatchRecord(frame: Int64(i), detector: Int32(k), faces: Int32(m.faces),
                                               truePositives: Int32(m.truePositives),
                                               falsePositives: Int32(m.falsePositives), misses: Int32(m.misses)))
                for (d, detection) in frame.detections.enumerated() {
                    writer.append(Self.detectionRecord(frame: i, detector: k, index: d, detection, m.outcomes[d]))
                }
            }
        }
        for (k, s) in summaries.enumerated() {
            for p in s.accuracy.curve {
                writer.append(CurvePointRecord(detector: Int32(k), curve: 0, threshold: p.threshold, x: p.recall, y: p.precision))
            }
            for p in s.roc.discrete {
                writer.append(CurvePointRecord(detector: Int32(k), curve: 1, threshold: p.threshold,
                                               x: Double(p.falsePositives), y: p.truePositiveRate))
            }
            for p in s.roc.continuous {
                writer.append(CurvePointRecord(detector: Int32(k), curve: 2, threshold: p.threshold,
                                               x: Double(p.falsePositives), y: p.truePositiveRate))
            }
        }
        try writer.setAttribute("metrics_json", .string(try EvalReport.json(
            summaries, dataset: dataset.name, images: dataset.images.count, faces: dataset.faceCount,
            threads: 0, wallSeconds: 0, out: nil, runID: nil)))
    }

    func finish(status: String) throws { try writer.finish(status: status) }

    static func detectionRecord(frame: Int, detector: Int, index: Int, _ d: FaceDetection,
                                _ outcome: MatchOutcome?) -> DetectionRecord {
        var face: Int32 = -1, iou = 0.0, kind: Int8 = -1
        switch outcome {
        case .truePositive(let f, let overlap)?: face = Int32(f); iou = overlap; kind = 1
        case .falsePositive?: kind = 0
        case .ignored?: kind = 2
        case nil: kind = -1
        }
        let nan = Double.nan
        return DetectionRecord(frame: Int64(frame), detector: Int32(detector), index: Int32(index),
                               x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score,
                               leftEyeX: d.leftEye?.x ?? nan, leftEyeY: d.leftEye?.y ?? nan,
                               rightEyeX: d.rightEye?.x ?? nan, rightEyeY: d.rightEye?.y ?? nan,
                               mouthX: d.mouth?.x ?? nan, mouthY: d.mouth?.y ?? nan,
                               outcome: kind, face: face, iou: iou)
    }
}
