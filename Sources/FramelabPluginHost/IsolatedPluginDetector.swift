import CFramelabPlugin
import FramelabCore
import FramelabDetection
import FramelabElements

/// A detector plugin run in a child process (`--isolate`): a `FaceDetector` whose
/// crash, hang or timeout fails the frame with a message instead of ending the host.
public final class IsolatedPluginDetector: StampedFaceDetector, TunableElement {
    public let element: PluginElement
    private let session: IsolatedSession
    private let input: DetectorInput

    public var name: String { element.info.name }
    /// How many times a dead worker was replaced.
    public var restarts: Int { session.restarts }
    /// Instances the current worker has created, as of the last parameter change.
    public private(set) var instancesCreated = 1

    public init(element: PluginElement, values: ParameterValues, options: IsolationOptions = IsolationOptions()) throws {
        guard element.info.kind == .detector else {
            throw FramelabError(.badInput, "element \(element.label) is a \(element.info.kind), not a detector")
        }
        self.element = element
        input = DetectorInput(label: element.label, accepted: element.info.formats)
        session = try IsolatedSession(element: element, values: values, options: options)
    }

    /// Runs the detector on one image; a frame in a format the plugin does not take is
    /// converted first (`DetectorInput`).
    /// Changes a parameter in the worker between frames (see `PluginFilter.setParameter`).
    public func setParameter(_ name: String, to text: String) throws {
        instancesCreated = try session.setParameter(name, to: text)
    }

    public func detect(_ frame: Mat) throws -> [FaceDetection] { try detect(frame, stamp: nil) }

    public func detect(_ frame: Mat, stamp: FrameStamp) throws -> [FaceDetection] { try detect(frame, stamp: Optional(stamp)) }

    private func detect(_ frame: Mat, stamp: FrameStamp?) throws -> [FaceDetection] {
        let image = try input.image(for: frame)
        let layout = session.layout(format: image.format, width: image.width, height: image.height,
                                    inputStride: nil, output: nil)
        let map = try session.mapped(size: layout.size)
        var request = WorkerRequest(operation: WorkerRequest.Operation.detect.rawValue, mappedSize: Int64(map.size),
                                    input: session.arenaSlot(image) ?? session.place(image, layout: layout, in: map),
                                    detectionOffset: Int64(layout.detectionOffset),
                                    detectionCapacity: Int32(PluginABI.detectionCapacity))
        request.stamp = stamp
        let response = try session.call(request)
        let found = (map.base + layout.detectionOffset).assumingMemoryBound(to: fl_plugin_detection.self)
        guard response.detectionCount >= 0, Int(response.detectionCount) <= PluginABI.detectionCapacity else {
            throw FramelabError(.processing, "element \(element.label) reported \(response.detectionCount) detections (room for \(PluginABI.detectionCapacity))")
        }
        let detections = (0..<Int(response.detectionCount)).map { FaceDetection(found[$0]) }
        if let bad = detections.first(where: { !$0.isWellFormed }) {
            throw FramelabError(.processing, "element \(element.label) reported a malformed box \(bad)")
        }
        return detections
    }
}
