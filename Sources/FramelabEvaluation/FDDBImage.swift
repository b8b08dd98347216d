import Foundation
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection

/// One image for the official FDDB protocol: its size (the canvas its regions are drawn on),
/// its annotated faces and a detector's detections.
public struct FDDBImage: Sendable {
    public var width: Int
    public var height: Int
    public var faces: [GroundTruthFace]
    public var detections: [FaceDetection]
    /// Names the image in errors.
    public var name: String

    public init(width: Int, height: Int, faces: [GroundTruthFace], detections: [FaceDetection], name: String = "") {
        self.width = width
        self.height = height
        self.faces = faces
        self.detections = detections
        self.name = name
    }

    /// The image at `image.path` with `detections`, its size read from the file's header
    /// without decoding (PNG, JPEG, BMP, WebP, PNM), else by decoding it (other formats),
    /// else, when the file cannot be read, the extent of its faces and detections
    /// (`extent(faces:detections:)`), which draws every region whole.
    public init(annotated image: AnnotatedImage, detections: [FaceDetection]) throws {
        let size: (width: Int, height: Int)
        if let declared = ImageCodec.declaredSize(ofFile: image.path) {
            size = declared
        } else if let decoded = try? ImageCodec.read(image.path, as: .gray8) {
            size = (decoded.width, decoded.height)
        } else {
            size = try Self.extent(faces: image.faces, detections: detections, name: image.name)
        }
        self.init(width: size.width, height: size.height, faces: image.faces, detections: detections, name: image.name)
    }

    /// The smallest canvas from (0, 0) that holds every face (ellipse or box) and detection,
    /// with a pixel to spare for rounding and for the rectangles' included far corner.
    public static func extent(faces: [GroundTruthFace], detections: [FaceDetection],
                              name: String = "") throws -> (width: Int, height: Int) {
        var right = 0.0, bottom = 0.0
        func include(_ maxX: Double, _ maxY: Double) { right = max(right, maxX); bottom = max(bottom, maxY) }
        for f in faces {
            if let e = f.ellipse {
                let box = e.boundingBox
                include(box.x + box.width, box.y + box.height)
            } else {
                include(f.box.x + f.box.width, f.box.y + f.box.height)
            }
        }
        for d in detections { include(d.box.maxX, d.box.maxY) }
        guard let w = Int(checked: right.rounded(.up)), let h = Int(checked: bottom.rounded(.up)),
              w < Int.max - 2, h < Int.max - 2 else {
            throw FramelabError(.badInput, "FDDB image '\(name)': a face or detection reaches beyond any canvas "
                                + "(right \(right), bottom \(bottom))")
        }
        return (max(1, w + 2), max(1, h + 2))
    }

    /// The images of `dataset` with the detections of `frames` (one detector's results in
    /// dataset order, as `DatasetEvaluator` returns them). A frame that failed (missing or
    /// corrupt image, detector error) has no detections: its faces count as misses.
    public static func images(dataset: FaceDataset, frames: [FrameResult]) throws -> [FDDBImage] {
        try frames.map { frame in
            guard dataset.images.indices.contains(frame.index) else {
                throw FramelabError(.badInput, "frame \(frame.index) ('\(frame.name)') is not an image of \(dataset.name)")
            }
            return try FDDBImage(annotated: dataset.images[frame.index], detections: frame.failure == nil ? frame.detections : [])
        }
    }
}
