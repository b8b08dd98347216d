import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabPipeline

/// A face detector as a pipeline stage (`run --detector`, `eval`): the image passes
/// through unchanged and what the detector found travels on with the frame as a
/// `DetectedFaces` annotation. A detector that fails on a frame fails that frame but
/// lets the stages after it run (they see the same image).
public final class DetectorStage: PipelineStage {
    public let name: String
    /// The spec as written (`cascade:scale=1.2`): the detector's label in tables.
    public let label: String
    /// This stage's position in the run's stages.
    public let position: Int
    private let descriptor: DetectorDescriptor
    private let spec: ElementSpec
    /// The detector instance (a `TunableElement` for plugin elements of ABI 2, see `run --tune`).
    public let detector: any FaceDetector
    public let acceptedFormats: [PixelFormat] = [.gray8, .bgr8, .bgra8]
    /// Runs on the stage's thread before each frame, with the frame's index (see
    /// `FilterStage.beforeFrame`). Not given to replicas.
    public var beforeFrame: ((Int) -> Void)?

    /// `name`: the stage's name (default `detect:` + the spec as written).
    public init(_ spec: ElementSpec, position: Int, registry: DetectorRegistry = .builtIns, name: String? = nil) throws {
        descriptor = try registry.descriptor(for: spec)
        detector = try descriptor.instantiate(spec)
        self.spec = spec
        self.position = position
        label = spec.description
        self.name = name ?? "detect:" + spec.description
    }

    private init(copying other: DetectorStage) throws {
        descriptor = other.descriptor
        spec = other.spec
        detector = try descriptor.instantiate(spec)
        position = other.position
        label = other.label
        name = other.name
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? { acceptedFormats.contains(input) ? input : nil }

    public func process(_ frame: Frame) throws -> Frame {
        beforeFrame?(frame.index)
        var out = frame
        let faces = try (detector as? any StampedFaceDetector)?.detect(frame.image, stamp: frame.stamp)
            ?? detector.detect(frame.image)
        out.annotations.append(DetectedFaces(stage: position, faces: faces))
        return out
    }

    /// Detector instances keep per-image scratch: each worker gets its own.
    public func replica() throws -> any PipelineStage { try DetectorStage(copying: self) }

    public var failureEndsFrame: Bool { false }

    /// Stages for `texts`, numbered from `firstPosition` (the filter stages come before them).
    public static func make(_ texts: [String], firstPosition: Int, registry: DetectorRegistry = .builtIns) throws
        -> [DetectorStage] {
        try texts.enumerated().map { i, text in
            try DetectorStage(ElementSpec(parsing: text), position: firstPosition + i, registry: registry)
        }
    }
}
