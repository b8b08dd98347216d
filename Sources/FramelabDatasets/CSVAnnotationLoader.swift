import Foundation
import FramelabCore

/// Framelab's simple CSV: a header line `image,x,y,width,height` (optionally `,ignore`),
/// then one face per row; an image without faces is a row with empty box fields
/// (`photo.jpg,,,,`). Rows of one image need not be adjacent. Paths are relative to the
/// CSV file; `#` starts a comment line. Image order is first appearance.
enum CSVAnnotationLoader {
    static let header = ["image", "x", "y", "width", "height"]

    static func load(_ path: String) throws -> [AnnotatedImage] {
        let text = try AnnotationText(path: path)
        let folder = (path as NSString).deletingLastPathComponent
        var order: [String] = []
        var faces: [String: [GroundTruthFace]] = [:]
        var sawHeader = false
        var withIgnore = false
        for (index, raw) in text.lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if !sawHeader {
                guard Array(fields.prefix(5)) == header, fields.count == 5 || (fields.count == 6 && fields[5] == "ignore") else {
                    throw malformed(path, index + 1, "expected the header 'image,x,y,width,height[,ignore]', got \(quoted(line))")
                }
                withIgnore = fields.count == 6
                sawHeader = true
                continue
            }
            let expected = withIgnore ? 6 : 5
            guard fields.count == expected else {
                throw malformed(path, index + 1, "expected \(expected) comma-separated fields, got \(fields.count) in \(quoted(line))")
            }
            let name = fields[0]
            guard !name.isEmpty else { throw malformed(path, index + 1, "empty image name") }
            if faces[name] == nil { order.append(name); faces[name] = [] }
            if fields[1...4].allSatisfy(\.isEmpty) { continue }
            let v = try fields[1...4].map { f -> Double in
                guard let d = Double(f), d.isFinite else { throw malformed(path, index + 1, "\(quoted(f)) is not a number in \(quoted(line))") }
                return d
            }
            guard v[2] > 0, v[3] > 0 else { throw malformed(path, index + 1, "width and height must be positive in \(quoted(line))") }
            var ignore = false
            if withIgnore {
                switch fields[5].trimmingCharacters(in: .whitespaces).lowercased() {
                case "1", "true", "yes": ignore = true
                case "0", "false", "no", "": ignore = false
                default:
                    throw malformed(path, index + 1, "ignore must be 1/true/yes or 0/false/no (or empty), got \(quoted(fields[5]))")
                }
            }
            faces[name]!.append(GroundTruthFace(box: FaceBox(x: v[0], y: v[1], width: v[2], height: v[3]), ignore: ignore))
        }
        guard sawHeader else { throw malformed(path, 1, "empty file: expected the header 'image,x,y,width,height'") }
        return order.map { AnnotatedImage(path: resolve($0, relativeTo: folder), name: $0, faces: faces[$0] ?? []) }
    }

    /// Writes images and faces in this format (used by the composite generator).
    static func write(_ images: [AnnotatedImage], to path: String, names: (AnnotatedImage) -> String) throws {
        var text = "image,x,y,width,height\n"
        for image in images {
            if image.faces.isEmpty { text += "\(names(image)),,,,\n" }
            for f in image.faces {
                text += "\(names(image)),\(f.box.x),\(f.box.y),\(f.box.width),\(f.box.height)\n"
            }
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw FramelabError(.io, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
