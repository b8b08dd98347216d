import FramelabCore
import FramelabFilters

/// Detectors by name: the built-ins (plugins will add theirs).
public struct DetectorRegistry: Sendable {
    public private(set) var descriptors: [DetectorDescriptor]

    public init(_ descriptors: [DetectorDescriptor]) { self.descriptors = descriptors }

    public static let builtIns = DetectorRegistry([
        OpenCVCascadeDetector.descriptor(name: "opencv-haar", summary: "OpenCV CascadeClassifier, Haar cascade",
                                         defaultCascade: CascadeFiles.haarFrontalFace),
        OpenCVCascadeDetector.descriptor(name: "opencv-lbp", summary: "OpenCV CascadeClassifier, LBP cascade",
                                         defaultCascade: CascadeFiles.lbpFrontalFace),
        SwiftCascadeDetector.descriptor,
        YuNetDetector.descriptor,
    ])

    public subscript(name: String) -> DetectorDescriptor? { descriptors.first { $0.name == name } }

    public var names: [String] { descriptors.map(\.name) }

    public mutating func register(_ descriptor: DetectorDescriptor) {
        descriptors.removeAll { $0.name == descriptor.name }
        descriptors.append(descriptor)
    }

    /// The descriptor for `spec.name`, or an error listing the known names.
    public func descriptor(for spec: ElementSpec) throws -> DetectorDescriptor {
        guard let d = self[spec.name] else {
            throw FramelabError(.badInput, "unknown detector '\(spec.name)' (known: \(names.joined(separator: ", ")))")
        }
        return d
    }

    public func instantiate(_ spec: ElementSpec) throws -> any FaceDetector {
        try descriptor(for: spec).instantiate(spec)
    }
}
