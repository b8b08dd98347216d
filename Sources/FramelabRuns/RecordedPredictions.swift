import Foundation
import FramelabCore
import FramelabDatasets
import FramelabRecording

/// An eval run's detections read back per detector and image, ready to be written as
/// saved predictions (`framelab export`): each evaluated image with the name its dataset
/// gives it, its COCO id when it has one, and its annotated faces.
public struct RecordedPredictions: Sendable {
    public struct Image: Sendable {
        public let frame: Int
        /// The dataset's name for the image (`0--Parade/x.jpg`), or, when the dataset could
        /// not be read again, its path relative to the run's `dataset_root`.
        public let name: String
        /// The image's absolute path as recorded.
        public let path: String
        public let cocoID: Int?
        public let faces: [GroundTruthFace]
    }

    public let runID: String
    public let labels: [String]
    public let images: [Image]
    /// Per detector, per image: what it found, nil where the image failed for it.
    public let faces: [[[PredictedFace]?]]
    /// Where names come from: "dataset" (re-read, its images agreeing with the run's) or "recorded paths".
    public let namesFrom: String
    /// The COCO face category of the dataset, when it was a coco: dataset.
    public let cocoCategory: Int?

    /// Reads run `runID` of `path` (default: the file's latest eval run). Names and COCO ids
    /// come from `dataset` (`FORMAT:PATH`; default the dataset the run recorded) when it can
    /// be read and its image at every evaluated position has the recorded file name; an
    /// explicit `dataset` that does not fit is an error, the recorded one falls back to paths.
    public static func read(path: String, runID: String?, dataset: String?) throws -> RecordedPredictions {
        let run = try chooseRun(path: path, runID: runID)
        let tables = try DetectionTables.Recorded.read(path: path, run: run)
        let frames = run.frames.filter { !$0.dropped }.map { Int($0.index) }
        let failed = Set(run.failures.map { DetectionTables.FrameDetector(frame: Int($0.frame), detector: Int($0.stage)) })
        var truth: [Int: [(Int32, GroundTruthFace)]] = [:]
        for g in tables.groundTruth { truth[Int(g.frame), default: []].append((g.face, g.truth)) }
        var found: [DetectionTables.FrameDetector: [DetectionRow]] = [:]
        for d in tables.detections { found[.init(frame: Int(d.frame), detector: Int(d.detector)), default: []].append(d) }

        let recordedDataset: String? = { if case .string(let s)? = run.attributes["dataset"] { return s }; return nil }()
        let data = try names(dataset ?? recordedDataset, explicit: dataset != nil, frames: frames, paths: tables.imagePaths)
        let root = DatasetPaths.root(of: run)
        let images = frames.map { f -> Image in
            let absolute = tables.imagePaths[f] ?? ""
            let image = data?.images[f]
            return Image(frame: f, name: image?.name ?? DatasetPaths.relative(absolute, root: root), path: absolute,
                         cocoID: image?.cocoID, faces: (truth[f] ?? []).sorted { $0.0 < $1.0 }.map(\.1))
        }
        let faces = run.stageNames.indices.map { k in
            frames.map { f -> [PredictedFace]? in
                let key = DetectionTables.FrameDetector(frame: f, detector: k)
                if failed.contains(key) || failed.contains(.init(frame: f, detector: -1)) { return nil }
                return (found[key] ?? []).sorted { $0.index < $1.index }.map {
                    let b = $0.detection.box
                    return PredictedFace(box: FaceBox(x: b.x, y: b.y, width: b.width, height: b.height), score: $0.detection.score)
                }
            }
        }
        return RecordedPredictions(runID: run.id, labels: run.stageNames, images: images, faces: faces,
                                   namesFrom: data == nil ? "recorded paths" : "dataset",
                                   cocoCategory: data?.format == .coco ? data?.cocoCategory ?? 1 : nil)
    }

    /// `runID`, or the latest eval run of the file; a run of another kind is an error.
    private static func chooseRun(path: String, runID: String?) throws -> RunData {
        let ids = try RecordingReader.runIDs(path: path)
        if let runID, !ids.contains(runID) {
            throw FramelabError(.badInput, "'\(path)' has no run '\(runID)' (runs: \(ids.joined(separator: ", ")))")
        }
        for id in runID.map({ [$0] }) ?? ids.reversed() {
            let run = try RecordingReader.readRun(path: path, id: id)
            if case .string("eval")? = run.attributes["kind"] { return run }
            if runID != nil { throw FramelabError(.badInput, "'\(path)' run '\(id)' is not an eval run: nothing to export") }
        }
        throw FramelabError(.badInput, "'\(path)' has no eval run (record one with framelab eval --out)")
    }

    /// The dataset whose images are the run's, or nil (see `read`).
    private static func names(_ spec: String?, explicit: Bool, frames: [Int], paths: [Int: String]) throws -> FaceDataset? {
        guard let spec else { return nil }
        let data: FaceDataset
        do {
            data = try FaceDataset.load(spec)
        } catch {
            if explicit { throw error }
            return nil
        }
        for f in frames {
            let recorded = ((paths[f] ?? "") as NSString).lastPathComponent
            guard f < data.images.count, (data.images[f].path as NSString).lastPathComponent == recorded else {
                if !explicit { return nil }
                throw FramelabError(.badInput, "dataset '\(spec)' does not hold the run's images: frame \(f) is '\(recorded)' in "
                                    + "the run, \(f < data.images.count ? "'\(data.images[f].path)'" : "absent") in the dataset")
            }
        }
        return data
    }
}
