import Foundation
import FramelabCore

/// A WIDER FACE submission folder, as WIDER's evaluation kit reads it: one text file per
/// image at `<event>/<image>.txt`, holding the image name, the number of faces, then
/// `x y w h score` per face. A file's image is its path inside the folder without `.txt`
/// (`0--Parade/0_Parade_marchingband_1_20`), matched to dataset images by `ImageKeyIndex`;
/// the name line inside is not used for matching. Files are read in sorted path order.
public enum WiderPredictions {
    public static func read(folder: String) throws -> PredictionFile {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw FramelabError(.io, "predictions '\(folder)': no such folder (a WIDER submission is a folder of <event>/<image>.txt)")
        }
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw FramelabError(.io, "predictions '\(folder)': cannot list the folder")
        }
        var relative: [String] = []
        while let entry = walker.nextObject() as? String {
            if entry.hasSuffix(".txt") { relative.append(entry) }
        }
        var images: [PredictedImage] = []
        for entry in relative.sorted() {
            let file = (folder as NSString).appendingPathComponent(entry)
            let list = DetectionListText(text: try predictionText(file), ellipses: false)
            guard let first = (0..<list.lineCount).first(where: { !list.isBlank($0) }) else {
                throw badPrediction(file, 1, "empty file: expected the image name, the number of faces and the faces")
            }
            let (block, next) = try list.block(at: first)
            if let extra = (0..<list.lineCount).dropFirst(next).first(where: { !list.isBlank($0) }) {
                throw badPrediction(file, extra + 1, "more lines than the \(block.faces.count) faces the count says: "
                                    + quoted(list.text.lines[extra]))
            }
            images.append(PredictedImage(key: .name(String(entry.dropLast(4))), origin: "'\(file)'", faces: block.faces))
        }
        return PredictionFile(format: .wider, path: folder, images: images)
    }

    /// The file of one image inside a submission folder, for its name `key` (`ImageKeyIndex.key`):
    /// `key.txt`, with `.`/`..` components dropped so every file stays inside the folder.
    public static func relativeFile(forKey key: String) -> String {
        key.split(separator: "/").filter { $0 != "." && $0 != ".." }.joined(separator: "/") + ".txt"
    }

    /// One image's file text: its name (the key's last component), the count, the faces.
    public static func text(key: String, faces: [PredictedFace]) -> String {
        detectionBlock(name: (key as NSString).lastPathComponent, faces: faces)
    }
}
