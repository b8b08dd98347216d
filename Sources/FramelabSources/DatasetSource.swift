import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabPipeline

/// `dataset:FORMAT:PATH`: the images of an annotated face dataset in annotation order
/// (see `FaceDataset.load`). Each frame carries its image's `AnnotatedImage` (the
/// ground truth) as an annotation. A missing or corrupt image becomes a recorded failure
/// and the run goes on.
public final class DatasetSource: FrameSource {
    public static let scheme = SourceScheme(
        "dataset", usage: "dataset:FORMAT:PATH — the images of an annotated face dataset (fddb, wider, dlib, csv, coco)"
    ) { try DatasetSource(spec: $0) }

    public let spec: SourceSpec
    public let isLive = false
    public let nominalFPS: Double? = nil
    public var expectedFrameCount: Int? { dataset.images.count }
    public let dataset: FaceDataset
    /// The pixel format images are decoded to.
    private let format: PixelFormat
    private var position = 0

    public init(spec: SourceSpec) throws {
        try spec.checkOptions([])
        self.spec = spec
        do {
            dataset = try FaceDataset.load(spec.target)
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "source '\(spec.text)': \(error.message)")
        }
        guard !dataset.images.isEmpty else {
            throw FramelabError(.badInput, "source '\(spec.text)': the dataset lists no images")
        }
        format = .bgra8
    }

    /// A dataset already loaded (and perhaps narrowed to a shard), decoded to `format`.
    public init(dataset: FaceDataset, spec: SourceSpec, format: PixelFormat) {
        self.spec = spec
        self.dataset = dataset
        self.format = format
    }

    public func next() throws -> SourceItem? {
        guard position < dataset.images.count else { return nil }
        defer { position += 1 }
        let item = dataset.images[position]
        do {
            let image = try ImageCodec.read(item.path, as: format)
            var frame = Frame(index: position, pts: 0, arrival: MonotonicClock.now(), image: image, origin: item.path)
            frame.annotations.append(item)
            return .frame(frame)
        } catch let error as FramelabError {
            return .failure(index: position, origin: item.path, reason: error.message)
        }
    }
}
