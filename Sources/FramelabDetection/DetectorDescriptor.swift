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
    /// The model files an instance with these parameters loads (for the run record and
    /// `framelab detectors`); nil: the `model` or `cascade` parameter, when set.
    let files: (@Sendable (DetectorParameters) -> [String])?

    public init(name: String, summary: String, parameters: [ParameterSpec], origin: String = builtInOrigin,
                modelFiles: (@Sendable (DetectorParameters) -> [String])? = nil,
                factory: @escaping @Sendable (DetectorParameters) throws -> any FaceDetector) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.origin = origin
        self.files = modelFiles
        self.factory = factory
    }

    /// The model files an instance with `parameters` loads, in a fixed order: those the
    /// detector declares, else its `model` or `cascade` parameter when that is set.
    public func modelFiles(for parameters: DetectorParameters) -> [String] {
        if let files { return files(parameters) }
        for key in ["model", "cascade"] {
            if case .string(let path)? = parameters.values.values[key], !path.isEmpty { return [path] }
        }
        return []
    }

    /// The default model files that are missing: empty when the detector can run with its
    /// defaults (`framelab detectors` lists the others as unavailable).
    public var missingDefaultModelFiles: [String] {
        guard let defaults = try? parameters(for: ElementSpec(name: name)) else { return [] }
        // A `model` parameter with no default (opencv-yunet) is a file the user must bring.
        if case .string("")? = defaults.values.values["model"] { return ["model=PATH (no default model is installed)"] }
        return ModelFiles.missing(modelFiles(for: defaults))
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
