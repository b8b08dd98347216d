import FramelabCore
import FramelabDatasets
import FramelabDetection

/// Saved predictions evaluated like a detector (`framelab eval --predictions`): read
/// from a WIDER folder, an FDDB list or COCO results, matched to the dataset's images,
/// and turned into one untimed `FrameResult` per image. No image is decoded.
public struct PredictionSet: Sendable {
    /// Run labels of prediction sets start with this: `predictions:NAME`.
    public static let labelPrefix = "predictions:"

    public let spec: PredictionSpec
    /// Per dataset image (dataset order): the predicted faces; none for an image the file does not mention.
    public let detections: [[FaceDetection]]
    /// One line each: images the file names that the dataset lacks, skipped results.
    public let warnings: [String]

    public var label: String { Self.labelPrefix + spec.name }

    /// Whether a run's stage label is a prediction set (its frames carry no timings).
    public static func isPredictionLabel(_ label: String) -> Bool { label.hasPrefix(labelPrefix) }

    /// Reads `--predictions [FORMAT:]PATH[:NAME]` and matches it to `dataset`'s images.
    public init(_ argument: String, dataset: FaceDataset) throws {
        try self.init(PredictionSpec(parsing: argument), dataset: dataset)
    }

    public init(_ spec: PredictionSpec, dataset: FaceDataset) throws {
        self.spec = spec
        if spec.format == .coco && dataset.format != .coco {
            throw FramelabError(.badInput, "predictions '\(spec.path)': COCO results name images by image_id, which only "
                                + "a coco: dataset has (--dataset coco:FILE.json)")
        }
        let file = try PredictionFile.read(spec.path, format: spec.format, cocoCategory: dataset.cocoCategory)
        var found = [[FaceDetection]](repeating: [], count: dataset.images.count)
        var unknown: [String] = [], ambiguous: [String] = []
        let names = ImageKeyIndex(dataset.images)
        var byID: [Int: Int] = [:]
        for (i, image) in dataset.images.enumerated() { if let id = image.cocoID { byID[id] = i } }
        for image in file.images {
            let position: Int?
            switch image.key {
            case .cocoID(let id):
                position = byID[id]
                if position == nil { unknown.append("image_id \(id)") }
            case .name(let name):
                switch names.lookup(name) {
                case .found(let i): position = i
                case .unknown: position = nil; unknown.append(image.origin)
                case .ambiguous: position = nil; ambiguous.append(image.origin)
                }
            }
            guard let position else { continue }
            found[position] += image.faces.map {
                FaceDetection(box: BoundingBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height),
                              score: $0.score)
            }
        }
        detections = found
        warnings = file.notes + Self.summary(unknown, "name images not in the dataset", spec.path)
            + Self.summary(ambiguous, "name several dataset images (give more of the path)", spec.path)
    }

    /// The set for the images at `positions` of the dataset it was matched to (a shard's):
    /// images of other shards are not "unknown", so nothing is said about them.
    public func selecting(_ positions: [Int]) -> PredictionSet {
        PredictionSet(spec: spec, detections: positions.map { detections.indices.contains($0) ? detections[$0] : [] },
                      warnings: warnings)
    }

    private init(spec: PredictionSpec, detections: [[FaceDetection]], warnings: [String]) {
        self.spec = spec
        self.detections = detections
        self.warnings = warnings
    }

    /// One warning line for a list of skipped entries, naming the first few.
    private static func summary(_ entries: [String], _ what: String, _ path: String) -> [String] {
        guard !entries.isEmpty else { return [] }
        let shown = 3
        let more = entries.count > shown ? ", … (\(entries.count - shown) more)" : ""
        return ["predictions '\(path)': \(entries.count) entr\(entries.count == 1 ? "y" : "ies") \(what), ignored: "
                + entries.prefix(shown).joined(separator: ", ") + more]
    }

    /// One result per dataset image, matched to its faces as a detector's would be, untimed.
    public func frames(for dataset: FaceDataset) -> [FrameResult] {
        dataset.images.enumerated().map { i, image in
            let d = i < detections.count ? detections[i] : []
            var r = FrameResult(index: i, name: image.name, failure: nil, detections: d,
                                match: FaceMatching.match(d, image.faces), startNs: 0, durationNs: 0, faces: image.faces)
            r.timed = false
            return r
        }
    }
}
