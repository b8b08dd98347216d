import Foundation
import FramelabCore
import FramelabFilters

/// Checked detector parameters: every value with its default filled in, plus which
/// names the user gave (so a preset can fill only the knobs left unset).
public struct DetectorParameters: Sendable {
    public let values: ParameterValues
    public let explicit: Set<String>

    public func double(_ name: String) -> Double { values.double(name) }
    public func int(_ name: String) -> Int { Int(values.double(name)) }
    public func string(_ name: String) -> String { values.string(name) }
    public func bool(_ name: String) -> Bool { values.bool(name) }
    public func isSet(_ name: String) -> Bool { explicit.contains(name) }
}

/// How a detector is described to users and made: name, summary, parameters, factory.
/// Built-in and plugin detectors are described alike; `origin` tells them apart.
public struct DetectorDescriptor: Sendable {
    /// The `origin` of Framelab's own detectors; a plugin's is its library path.
    public static let builtInOrigin = "built-in"

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

    public var isBuiltIn: Bool { origin == Self.builtInOrigin }

    /// Checks the spec's `key=value` arguments and creates one instance.
    public func instantiate(_ spec: ElementSpec) throws -> any FaceDetector {
        try factory(parameters(for: spec))
    }

    /// The checked parameters for a spec (errors name the detector and the key, and for a
    /// plugin the file that declared the parameters).
    public func parameters(for spec: ElementSpec) throws -> DetectorParameters {
        do {
            return try checkedParameters(spec)
        } catch let error as FramelabError where !isBuiltIn {
            throw FramelabError(error.kind, "\(origin): \(error.message)")
        }
    }

    private func checkedParameters(_ spec: ElementSpec) throws -> DetectorParameters {
        var values: [String: ParameterValue] = [:]
        for p in parameters { values[p.name] = p.defaultValue }
        var explicit: Set<String> = []
        for (key, text) in spec.arguments {
            guard let p = parameters.first(where: { $0.name == key }) else {
                let known = parameters.map(\.name).joined(separator: ", ")
                throw FramelabError(.badInput, "detector '\(name)': unknown parameter '\(key)' (known: \(known))")
            }
            do {
                values[key] = try p.parse(text, element: name)
            } catch let error as FramelabError {
                // ParameterSpec words its errors for filters; say detector instead.
                throw FramelabError(.badInput, error.message.replacingFirst("filter '", with: "detector '"))
            }
            explicit.insert(key)
        }
        return DetectorParameters(values: ParameterValues(values), explicit: explicit)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
