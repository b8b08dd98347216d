import Foundation
import FramelabCore

/// The formats `framelab eval --predictions` reads and `framelab export` writes
/// (docs/predictions.md).
public enum PredictionFormat: String, Sendable, CaseIterable {
    /// A WIDER FACE submission folder: `<event>/<image>.txt`, one file per image.
    case wider
    /// An FDDB detection list: one file, one block per image (rectangles or ellipses).
    case fddb
    /// A COCO results JSON: `[{"image_id", "category_id", "bbox", "score"}]`.
    case coco

    /// One line of help per format, for --help.
    public var usage: String {
        switch self {
        case .wider: return "wider:FOLDER — WIDER submission: FOLDER/<event>/<image>.txt, each 'name', 'count', then 'x y w h score' lines"
        case .fddb: return "fddb:FILE — FDDB detection list: per image 'name', 'count', then 'x y w h score' or 'major minor angle cx cy score' lines"
        case .coco: return "coco:FILE.json — COCO results [{\"image_id\",\"category_id\",\"bbox\":[x,y,w,h],\"score\"}]; needs a coco: dataset"
        }
    }

    /// The format a path's shape says: a folder is a WIDER submission, a `.json` file COCO
    /// results, any other file an FDDB detection list.
    public static func detect(_ path: String) -> PredictionFormat {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { return .wider }
        return (collapsingSlashes(path) as NSString).pathExtension.lowercased() == "json" ? .coco : .fddb
    }
}

/// One predicted face: its box in image pixels and the predictor's score.
public struct PredictedFace: Sendable, Equatable {
    public var box: FaceBox
    public var score: Double

    public init(box: FaceBox, score: Double) {
        self.box = box
        self.score = score
    }
}

/// How a prediction names its image: by name (WIDER, FDDB; see `ImageKeyIndex`) or by
/// COCO image id.
public enum PredictionKey: Hashable, Sendable {
    case name(String)
    case cocoID(Int)
}

/// The predictions for one image, and where they were read (for messages).
public struct PredictedImage: Sendable, Equatable {
    public var key: PredictionKey
    /// `'file'` or `'file' line N`: what a warning about this image names.
    public var origin: String
    public var faces: [PredictedFace]

    public init(key: PredictionKey, origin: String, faces: [PredictedFace]) {
        self.key = key
        self.origin = origin
        self.faces = faces
    }
}

/// A prediction file (or WIDER folder) as read: its images in file order.
public struct PredictionFile: Sendable {
    public let format: PredictionFormat
    public let path: String
    public var images: [PredictedImage]
    /// What the reader skipped without failing (COCO results of other categories), one line each.
    public var notes: [String]

    public init(format: PredictionFormat, path: String, images: [PredictedImage], notes: [String] = []) {
        self.format = format
        self.path = path
        self.images = images
        self.notes = notes
    }

    /// Reads `path` as `format`; COCO results keep only `cocoCategory` (when given).
    public static func read(_ path: String, format: PredictionFormat, cocoCategory: Int? = nil) throws -> PredictionFile {
        switch format {
        case .wider: return try WiderPredictions.read(folder: path)
        case .fddb: return try FDDBPredictions.read(path)
        case .coco: return try COCOResults.read(path, category: cocoCategory)
        }
    }
}

/// "predictions 'file' line N: why" — the error every prediction reader raises for a bad line.
func badPrediction(_ file: String, _ line: Int, _ why: String) -> FramelabError {
    FramelabError(.badInput, "predictions '\(file)' line \(line): \(why)")
}
