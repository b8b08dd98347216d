import FramelabCore

/// A configured face detector: an image in, faces out.
///
/// Instances keep per-image scratch buffers, so one instance serves one thread at a
/// time; evaluating on several threads makes one instance per thread (see
/// `DetectorDescriptor.instantiate`).
public protocol FaceDetector: AnyObject {
    /// The registry name (`opencv-haar`, `cascade`, …).
    var name: String { get }
    /// Faces in `image` (any pixel format; detectors convert what they need).
    func detect(_ image: Mat) throws -> [FaceDetection]
}

/// A detector told where each frame sits in its stream (plugin elements of ABI 2 are).
/// `DetectorStage` calls this instead of `detect(_:)` when a detector has it.
public protocol StampedFaceDetector: FaceDetector {
    func detect(_ image: Mat, stamp: FrameStamp) throws -> [FaceDetection]
}
