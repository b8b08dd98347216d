import FramelabCore
import FramelabCV
import FramelabDatasets

/// `dataset:FORMAT:PATH`: the images of an annotated face dataset in annotation order
/// (see `FaceDataset.load`). A missing or corrupt image becomes a recorded failure and
/// the run goes on; `dataset.images[frame.index]` holds that frame's faces.
public final class DatasetSource: FrameSource {
    public let spec: SourceSpec
    public let isLive = false
    public let nominalFPS: Double? = nil
    public var expectedFrameCount: Int? { dataset.images.count }
    public let dataset: FaceDataset
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
    }

    public func next() throws -> SourceItem? {
        guard position < dataset.images.count else { return nil }
        defer { position += 1 }
        let path = dataset.images[position].path
        do {
            let image = try ImageCodec.read(path)
            return .frame(Frame(index: position, pts: 0, arrival: MonotonicClock.now(), image: image, origin: path))
        } catch let error as FramelabError {
            return .failure(index: position, origin: path, reason: error.message)
        }
    }
}
