import Foundation
import FramelabCore

/// COCO-format ground truth (`coco:FILE.json`):
///
///     {"images": [{"id": 1, "file_name": "a.jpg", "width": 640, "height": 480}, …],
///      "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [x, y, w, h], "iscrowd": 0}, …],
///      "categories": [{"id": 1, "name": "face"}]}
///
/// The face category is the only category, or the one named `face`; annotations of other
/// categories are left out (with no categories, every annotation is a face). `iscrowd: 1`
/// (or `ignore: 1`) makes an `ignore` face, as does a box with no area. Images keep the
/// file's order and their COCO ids; `file_name` is relative to the JSON's folder, or to an
/// `images` folder beside it when the file is there instead. `width` and `height` are not needed.
enum COCOLoader {
    static func load(_ path: String) throws -> (images: [AnnotatedImage], category: Int?) {
        let top = try JSONNode.parse(file: path, what: "coco")
        let folder = (path as NSString).deletingLastPathComponent
        let category = try faceCategory(top)
        var images: [AnnotatedImage] = []
        var position: [Int: Int] = [:]
        for node in try top.required("images").array() {
            let id = try node.required("id").integer()
            let file = try node.required("file_name").string()
            guard !file.isEmpty else { throw try node.required("file_name").error("empty file name") }
            guard position[id] == nil else { throw try node.required("id").error("image id \(id) appears twice") }
            position[id] = images.count
            images.append(AnnotatedImage(path: imagePath(file, folder: folder), name: file, faces: [], cocoID: id))
        }
        for node in try top.member("annotations")?.array() ?? [] {
            if let category, let c = try node.member("category_id")?.integer(), c != category { continue }
            let imageID = try node.required("image_id")
            guard let i = position[try imageID.integer()] else { throw imageID.error("no image has id \(try imageID.integer())") }
            let box = try node.required("bbox").box()
            let crowd = try node.member("iscrowd")?.flag() ?? false
            let ignore = try node.member("ignore")?.flag() ?? false
            images[i].faces.append(GroundTruthFace(box: box, ignore: crowd || ignore || box.width <= 0 || box.height <= 0))
        }
        return (images, category)
    }

    /// The id of the face category: the only one, or the one named "face"; nil without categories.
    private static func faceCategory(_ top: JSONNode) throws -> Int? {
        guard let list = try top.member("categories")?.array(), !list.isEmpty else { return nil }
        if list.count == 1 { return try list[0].required("id").integer() }
        for c in list {
            if try c.member("name")?.string().lowercased() == "face" { return try c.required("id").integer() }
        }
        let names = try list.prefix(8).map { try $0.member("name")?.string() ?? "?" }.joined(separator: ", ")
        throw try top.required("categories").error("\(list.count) categories and none is named 'face' (\(names))")
    }

    /// `file` beside the JSON, or in `images/` beside it when only there.
    private static func imagePath(_ file: String, folder: String) -> String {
        let direct = resolve(file, relativeTo: folder)
        if file.hasPrefix("/") || FileManager.default.fileExists(atPath: direct) { return direct }
        let inImages = resolve(file, relativeTo: (folder as NSString).appendingPathComponent("images"))
        return FileManager.default.fileExists(atPath: inImages) ? inImages : direct
    }

    /// Ground truth in this format for `images` (their COCO ids must be set), one category
    /// `face` (id 1). Numbers in Swift's shortest round-trip form.
    static func json(_ images: [AnnotatedImage], fileNames: [String]) -> String {
        var imageLines: [String] = [], annotationLines: [String] = []
        for (image, file) in zip(images, fileNames) {
            let id = image.cocoID ?? 0
            imageLines.append("{\"id\": \(id), \"file_name\": \(JSONNode.literal(file))}")
            for f in image.faces {
                let b = f.box
                annotationLines.append("{\"id\": \(annotationLines.count + 1), \"image_id\": \(id), \"category_id\": 1, "
                                       + "\"bbox\": [\(b.x), \(b.y), \(b.width), \(b.height)], \"area\": \(b.width * b.height), "
                                       + "\"iscrowd\": \(f.ignore ? 1 : 0)}")
            }
        }
        func list(_ lines: [String]) -> String { lines.isEmpty ? "[]" : "[\n  " + lines.joined(separator: ",\n  ") + "\n ]" }
        return "{\"images\": \(list(imageLines)),\n \"annotations\": \(list(annotationLines)),\n"
            + " \"categories\": [{\"id\": 1, \"name\": \"face\"}]}\n"
    }
}

extension FaceDataset {
    /// COCO ground truth JSON for `images` (each with its `cocoID`): what `framelab export
    /// --format coco` writes beside results of a dataset that had no COCO ids.
    /// `fileNames`: each image's `file_name`, relative to the JSON's folder or absolute.
    public static func cocoGroundTruth(_ images: [AnnotatedImage], fileNames: [String]) -> String {
        COCOLoader.json(images, fileNames: fileNames)
    }
}
