import FramelabCore
import FramelabElements

/// Detectors by name: the built-ins, and plugin detectors registered beside them.
public typealias DetectorRegistry = ElementRegistry<DetectorDescriptor>

extension ElementRegistry where Descriptor == DetectorDescriptor {
    /// The registry of built-in detectors.
    public static var builtIns: DetectorRegistry {
        DetectorRegistry(builtIns: [
            OpenCVCascadeDetector.descriptor(name: "opencv-haar", summary: "OpenCV CascadeClassifier, Haar cascade",
                                             defaultCascade: CascadeFiles.haarFrontalFace),
            OpenCVCascadeDetector.descriptor(name: "opencv-lbp", summary: "OpenCV CascadeClassifier, LBP cascade",
                                             defaultCascade: CascadeFiles.lbpFrontalFace),
            SwiftCascadeDetector.descriptor,
            YuNetDetector.descriptor,
            OpenCVSSDDetector.descriptor,
            CenterFaceDetector.descriptor,
            MTCNNDetector.descriptor,
        ])
    }

    public func instantiate(_ spec: ElementSpec) throws -> any FaceDetector {
        try descriptor(for: spec).instantiate(spec)
    }
}
