import Foundation
import FramelabCore

/// COCO detection results: `[{"image_id": 1, "category_id": 1, "bbox": [x, y, w, h],
/// "score": 0.9}, …]`, matched to a `coco:` dataset's images by `image_id`. Results of a
/// category other than the dataset's face category are skipped (a note says how many);
/// `category_id` may be left out.
public enum COCOResults {
    public static func read(_ path: String, category: Int?) throws -> PredictionFile {
        let top = try JSONNode.parse(file: path, what: "predictions")
        var order: [Int] = []
        var faces: [Int: [PredictedFace]] = [:]
        var otherCategory = 0
        for result in try top.array() {
            let id = try result.required("image_id").integer()
            if let category, let c = try result.member("category_id")?.integer(), c != category {
                otherCategory += 1
                continue
            }
            let face = PredictedFace(box: try result.required("bbox").box(), score: try result.required("score").number())
            if faces[id] == nil { order.append(id) }
            faces[id, default: []].append(face)
        }
        let notes = otherCategory == 0 ? [] : ["predictions '\(path)': \(otherCategory) results of categories other than "
                                               + "\(category.map(String.init) ?? "") skipped"]
        return PredictionFile(format: .coco, path: path, images: order.map {
            PredictedImage(key: .cocoID($0), origin: "'\(path)' image_id \($0)", faces: faces[$0] ?? [])
        }, notes: notes)
    }

    /// Results JSON for `images` (COCO image id and faces), one result per face, in order.
    /// Numbers are written in Swift's shortest round-trip form: reading gives the same Doubles.
    public static func json(_ images: [(id: Int, faces: [PredictedFace])], category: Int) -> String {
        var lines: [String] = []
        for image in images {
            for f in image.faces {
                lines.append("{\"image_id\": \(image.id), \"category_id\": \(category), \"bbox\": [\(f.box.x), \(f.box.y), "
                             + "\(f.box.width), \(f.box.height)], \"score\": \(f.score)}")
            }
        }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }
}
