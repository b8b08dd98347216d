import FramelabCore
import FramelabDetection
import FramelabFilters
import FramelabPipeline

/// A face detector as a pipeline stage for `framelab run --detector`: the frame passes
/// through unchanged; what the detector found is kept for the recorder, which reads it
/// when the stage's timing event arrives (events come on the same thread, in order).
final class DetectorStage: PipelineStage {
    let detector: any FaceDetector
    let label: String
    /// The last processed frame's index and detections.
    private(set) var lastFrame = -1
    private(set) var lastDetections: [FaceDetection] = []
    private(set) var totalFaces = 0

    init(_ spec: ElementSpec, registry: DetectorRegistry = .builtIns) throws {
        detector = try registry.instantiate(spec)
        label = spec.description
    }

    var name: String { "detect:" + label }
    let acceptedFormats: [PixelFormat] = [.gray8, .bgr8, .bgra8]

    func outputFormat(for input: PixelFormat) -> PixelFormat? { acceptedFormats.contains(input) ? input : nil }

    func process(_ frame: Frame) throws -> Frame {
        lastDetections = try detector.detect(frame.image)
        lastFrame = frame.index
        totalFaces += lastDetections.count
        return frame
    }

    static func make(_ texts: [String], registry: DetectorRegistry = .builtIns) throws -> [DetectorStage] {
        try texts.map { try DetectorStage(ElementSpec(parsing: $0), registry: registry) }
    }
}
