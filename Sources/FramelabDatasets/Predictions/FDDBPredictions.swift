import Foundation
import FramelabCore

/// FDDB detection lists, the file FDDB's evaluation program reads (its README, "Detection
/// output"): per image its name (`2002/08/11/big/img_591`, no extension), the number of
/// faces, then one line per face — `left_x top_y width height score` (a rectangle) or
/// `major_radius minor_radius angle center_x center_y score` (an ellipse, read as the box
/// enclosing it). Framelab writes rectangles.
public enum FDDBPredictions {
    public static func read(_ path: String) throws -> PredictionFile {
        let text = try predictionText(path)
        let blocks = try DetectionListText(text: text, ellipses: true).blocks()
        return PredictionFile(format: .fddb, path: path, images: blocks.map {
            PredictedImage(key: .name($0.name), origin: "'\(path)' line \($0.line)", faces: $0.faces)
        })
    }

    /// The list of `images` (name and faces, in order) as one file's text.
    public static func text(_ images: [(name: String, faces: [PredictedFace])]) -> String {
        images.map { detectionBlock(name: $0.name, faces: $0.faces) }.joined()
    }
}

/// A prediction file's lines, or an error naming it.
func predictionText(_ path: String) throws -> AnnotationText {
    do {
        return try AnnotationText(path: path)
    } catch let e as FramelabError {
        // AnnotationText names the file as an annotation; here it is a prediction file.
        let prefix = "annotation "
        throw FramelabError(e.kind, e.message.hasPrefix(prefix) ? "predictions " + e.message.dropFirst(prefix.count) : e.message)
    }
}
