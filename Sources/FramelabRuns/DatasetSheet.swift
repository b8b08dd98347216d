import Foundation
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection

/// `framelab dataset show`: a dataset's images with their annotated faces drawn (green,
/// ignored ones grey) and, given an eval run over the same images, each detector's boxes
/// and scores, as PNGs and one HTML contact sheet (`index.html`) linking them.
public enum DatasetSheet {
    /// What was drawn for one image.
    public struct Page: Sendable {
        public let index: Int
        public let name: String
        /// The PNG's file name inside the output folder; nil when the image could not be read.
        public let file: String?
        public let faces: Int
        public let ignored: Int
        /// Per detector (the run's order): boxes drawn, nil when the image failed for it.
        public let found: [Int?]
        public let error: String?
    }

    public struct Result: Sendable {
        public let pages: [Page]
        public let detectors: [String]
        public let sheet: String
        public var failed: Int { pages.filter { $0.error != nil }.count }
    }

    /// Draws the first `limit` images of `dataset` into `folder` (made if missing).
    /// `predictions` must be of a run over this dataset (see `RecordedPredictions.read`).
    public static func render(dataset: FaceDataset, predictions: RecordedPredictions?, into folder: String, limit: Int,
                              progress: (Int, Int) -> Void = { _, _ in }) throws -> Result {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let detectors = predictions?.labels ?? []
        var byFrame: [Int: Int] = [:]
        for (i, image) in (predictions?.images ?? []).enumerated() { byFrame[image.frame] = i }
        let count = min(limit, dataset.images.count)
        var pages: [Page] = []
        for index in 0..<count {
            progress(index, count)
            let image = dataset.images[index]
            let found: [[PredictedFace]?] = detectors.indices.map { k in
                guard let predictions, let i = byFrame[index] else { return nil }
                return predictions.faces[k][i]
            }
            pages.append(page(index: index, image: image, found: found, detectors: detectors, folder: folder))
        }
        progress(count, count)
        let sheet = (folder as NSString).appendingPathComponent("index.html")
        try ContactSheetHTML.make(title: dataset.name, run: predictions?.runID, detectors: detectors, pages: pages)
            .write(toFile: sheet, atomically: true, encoding: .utf8)
        return Result(pages: pages, detectors: detectors, sheet: sheet)
    }

    private static func page(index: Int, image: AnnotatedImage, found: [[PredictedFace]?], detectors: [String],
                             folder: String) -> Page {
        let ignored = image.faces.filter(\.ignore).count
        let file = String(format: "%04d.png", index)
        do {
            let canvas = try DetectionOverlay.canvas(for: try ImageCodec.read(image.path))
            try DetectionOverlay.drawTruth(image.faces.map { (box($0.box), $0.ignore) }, on: canvas)
            for (k, faces) in found.enumerated() {
                let detections = (faces ?? []).map { FaceDetection(box: box($0.box), score: $0.score) }
                try DetectionOverlay.draw(detections, detector: detectors[k], color: DetectionOverlay.color(forDetector: k),
                                          on: canvas)
            }
            try ImageCodec.write(canvas, to: (folder as NSString).appendingPathComponent(file))
            return Page(index: index, name: image.name, file: file, faces: image.faces.count - ignored, ignored: ignored,
                        found: found.map { $0?.count }, error: nil)
        } catch {
            return Page(index: index, name: image.name, file: nil, faces: image.faces.count - ignored, ignored: ignored,
                        found: found.map { $0?.count }, error: "\(error)")
        }
    }

    private static func box(_ b: FaceBox) -> BoundingBox { BoundingBox(x: b.x, y: b.y, width: b.width, height: b.height) }
}
