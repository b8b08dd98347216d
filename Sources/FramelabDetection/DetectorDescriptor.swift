import FramelabCore
import FramelabElements

/// How a detector is described to users and made: name, summary, parameters, factory.
/// Built-in and plugin detectors are described alike; `origin` tells them apart.
public struct DetectorDescriptor: ElementDescriptor {
    public static let kind = ElementKind.detector

    public let name: String
    public let summary: String
    public let parameters: [ParameterSpec]
    public let origin: String
    let factory: @Sendable (DetectorParameters) throws -> any FaceDetector

    public init(name: String, summary: String, parameters: [ParameterSpec], origin: String = builtInOrigin,
                factory: @escaping @Sendable (DetectorParameters) throws -> any FaceDetector) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.origin = origin
        self.factory = factory
    }

    /// Checks the spec's `key=value` arguments and creates one instance.
    public func instantiate(_ spec: ElementSpec) throws -> any FaceDetector {
        try factory(parameters(for: spec))
    }

    /// The checked parameters for a spec (errors name the detector and the key, and for a
    /// plugin the file that declared the parameters).
    public func parameters(for spec: ElementSpec) throws -> DetectorParameters {
        DetectorParameters(try parameterValues(spec))
    }
}
