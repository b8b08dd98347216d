import FramelabDatasets
import FramelabDetection

/// One detector on one dataset image: what it found, how that matched, how long it took.
public struct FrameResult: Sendable {
    /// The image's position in the dataset.
    public var index: Int
    public var name: String
    /// Why the frame failed (missing or corrupt image, detector error); nil when it ran.
    public var failure: String?
    public var detections: [FaceDetection]
    public var match: FrameMatch
    /// The image's annotated faces (for FDDB's ROC, which re-matches per threshold);
    /// empty when not known.
    public var faces: [GroundTruthFace]
    /// Monotonic start of the detector call and its duration, nanoseconds.
    public var startNs: UInt64
    public var durationNs: UInt64
    /// False for saved predictions (`eval --predictions`): nothing ran, so there is no
    /// time to report; `startNs` and `durationNs` are 0 and mean nothing.
    public var timed = true

    public var milliseconds: Double { Double(durationNs) / 1e6 }

    public init(index: Int, name: String, failure: String?, detections: [FaceDetection], match: FrameMatch,
                startNs: UInt64, durationNs: UInt64, faces: [GroundTruthFace] = []) {
        self.index = index; self.name = name; self.failure = failure; self.detections = detections
        self.match = match; self.startNs = startNs; self.durationNs = durationNs; self.faces = faces
    }
}
