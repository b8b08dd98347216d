import Foundation
import FramelabCore
import FramelabDatasets

/// Writes an eval run's detections as saved predictions (`framelab export`,
/// docs/predictions.md "Export"): per detector a WIDER submission folder, an FDDB
/// detection list or COCO results. One detector: `out` is that folder or file; several:
/// `out` is a folder holding one per detector, named by its label (`opencv-haar`,
/// `opencv-haar_scale_1.2.txt`, …). Images that failed for a detector get no entry.
public enum PredictionExport {
    /// What was written for one detector.
    public struct Written: Sendable, Encodable {
        public let detector: String
        public let path: String
        public let images: Int
        public let detections: Int
        /// Images skipped because they failed for the detector, and detections with a non-finite number.
        public let failed_images: Int
        public let skipped_detections: Int
    }

    public struct Result: Sendable, Encodable {
        public let exports: [Written]
        /// The COCO ground truth written beside COCO results of a dataset without COCO ids.
        public let ground_truth: String?
    }

    /// `detectors`: positions in `recorded.labels`. `groundTruth`: where COCO ground truth
    /// goes when the run's dataset had no COCO ids (default beside the results).
    public static func write(_ recorded: RecordedPredictions, format: PredictionFormat, detectors: [Int], out: String,
                             groundTruth: String? = nil) throws -> Result {
        let several = detectors.count > 1
        if several { try makeFolder(out) }
        let targets = detectors.map { k -> String in
            guard several else { return out }
            let name = fileName(recorded.labels[k])
            return (out as NSString).appendingPathComponent(format == .wider ? name : name + (format == .coco ? ".json" : ".txt"))
        }
        if Set(targets).count < targets.count {
            throw FramelabError(.badInput, "two detectors of the run export to the same name; choose one with --detector")
        }
        // COCO results need image ids: the dataset's, or frame + 1 with matching ground truth written.
        let cocoIDs = recorded.cocoCategory != nil && recorded.images.allSatisfy { $0.cocoID != nil }
        var truthPath: String?
        if format == .coco && !cocoIDs {
            let path = groundTruth ?? (several ? (out as NSString).appendingPathComponent("ground_truth.json")
                                                : ((out as NSString).deletingPathExtension + "_ground_truth.json"))
            try writeCOCOGroundTruth(recorded, to: path)
            truthPath = path
        }
        let exports = try zip(detectors, targets).map { k, target -> Written in
            var entries: [(image: RecordedPredictions.Image, faces: [PredictedFace])] = []
            var failed = 0, skipped = 0
            for (image, faces) in zip(recorded.images, recorded.faces[k]) {
                guard let faces else { failed += 1; continue }
                let finite = faces.filter { [$0.box.x, $0.box.y, $0.box.width, $0.box.height, $0.score].allSatisfy(\.isFinite) }
                skipped += faces.count - finite.count
                entries.append((image, finite))
            }
            switch format {
            case .wider:
                try writeWider(entries, folder: target)
            case .fddb:
                try save(FDDBPredictions.text(entries.map { (ImageKeyIndex.key($0.image.name), $0.faces) }), to: target)
            case .coco:
                let ids = entries.map { (id: cocoIDs ? $0.image.cocoID ?? 0 : $0.image.frame + 1, faces: $0.faces) }
                try save(COCOResults.json(ids, category: cocoIDs ? recorded.cocoCategory ?? 1 : 1), to: target)
            }
            return Written(detector: recorded.labels[k], path: target, images: entries.count,
                           detections: entries.reduce(0) { $0 + $1.faces.count }, failed_images: failed,
                           skipped_detections: skipped)
        }
        return Result(exports: exports, ground_truth: truthPath)
    }

    /// A label as a file name: characters other than letters, digits, `.`, `-` and `_` become `_`.
    public static func fileName(_ label: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let name = String(label.map { allowed.contains($0) ? $0 : "_" })
        return name.allSatisfy { $0 == "." } ? "_" + name : name
    }

    private static func writeWider(_ entries: [(image: RecordedPredictions.Image, faces: [PredictedFace])], folder: String) throws {
        try makeFolder(folder)
        var used: [String: String] = [:]
        for (image, faces) in entries {
            let key = ImageKeyIndex.key(image.name)
            let relative = WiderPredictions.relativeFile(forKey: key)
            if let other = used[relative] {
                throw FramelabError(.badInput, "images '\(other)' and '\(image.name)' both export to '\(relative)'")
            }
            used[relative] = image.name
            let file = (folder as NSString).appendingPathComponent(relative)
            try makeFolder((file as NSString).deletingLastPathComponent)
            try save(WiderPredictions.text(key: key, faces: faces), to: file)
        }
    }

    /// Ground truth for the run's images, ids frame + 1, `file_name` relative to the JSON's
    /// folder when the image is inside it, else absolute.
    private static func writeCOCOGroundTruth(_ recorded: RecordedPredictions, to path: String) throws {
        let folder = (DatasetPaths.absolute(path) as NSString).deletingLastPathComponent
        let images = recorded.images.map { AnnotatedImage(path: $0.path, name: $0.name, faces: $0.faces, cocoID: $0.frame + 1) }
        try save(FaceDataset.cocoGroundTruth(images, fileNames: images.map { DatasetPaths.relative($0.path, root: folder) }),
                 to: path)
    }

    private static func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FramelabError(.io, "cannot create the folder '\(path)': \(error.localizedDescription)")
        }
    }

    private static func save(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw FramelabError(.io, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
