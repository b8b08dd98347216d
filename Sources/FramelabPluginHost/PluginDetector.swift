import CFramelabPlugin
import FramelabCore
import FramelabDetection
import FramelabElements

/// A detector plugin element run in this process: a `FaceDetector` like the built-ins,
/// so `run --detector` and `eval --detector` take it by name.
public final class PluginDetector: StampedFaceDetector, TunableElement {
    public let element: PluginElement
    private var instance: PluginInstance
    private var values: ParameterValues
    /// Instances created: 1, plus one per parameter change the element could not take live.
    public private(set) var instancesCreated = 1
    private let buffer = UnsafeMutablePointer<fl_plugin_detection>.allocate(capacity: PluginABI.detectionCapacity)
    private let input: DetectorInput

    public var name: String { element.info.name }

    public init(element: PluginElement, values: ParameterValues) throws {
        guard element.info.kind == .detector else {
            throw FramelabError(.badInput, "element \(element.label) is a \(element.info.kind), not a detector")
        }
        self.element = element
        input = DetectorInput(label: element.label, accepted: element.info.formats)
        self.values = values
        instance = try PluginInstance(element: element, values: values)
    }

    /// Changes a parameter between frames (see `PluginFilter.setParameter`).
    public func setParameter(_ name: String, to text: String) throws {
        let next = try PluginInstance.changing(instance, values: values, name, to: text)
        (instance, values) = (next.instance, next.values)
        if next.isNew { instancesCreated += 1 }
    }

    deinit { buffer.deallocate() }

    /// Runs the detector on one image; a frame in a format the plugin does not take is
    /// converted first (`DetectorInput`).
    public func detect(_ frame: Mat) throws -> [FaceDetection] { try detect(frame, stamp: nil) }

    public func detect(_ frame: Mat, stamp: FrameStamp) throws -> [FaceDetection] { try detect(frame, stamp: Optional(stamp)) }

    func detect(_ frame: Mat, stamp: FrameStamp?) throws -> [FaceDetection] {
        let image = try input.image(for: frame)
        let count = try image.withUnsafeBytes { bytes in
            var cImage = fl_plugin_image(image, data: bytes.baseAddress!)
            return try instance.detect(&cImage, into: buffer, capacity: Int32(PluginABI.detectionCapacity), stamp: stamp)
        }
        let detections = (0..<count).map { FaceDetection(buffer[$0]) }
        if let bad = detections.first(where: { !$0.isWellFormed }) {
            throw FramelabError(.processing, "element \(element.label) reported a malformed box \(bad)")
        }
        return detections
    }
}
