import FramelabDetection
import FramelabElements

/// A detector as configured for an evaluation, as one comparable line:
/// `opencv-haar:accuracy=low,scale=1.2 defaults:max-size=0,min-size=24,neighbours=3,…` —
/// the parameters given (parsed, so `1.20` and `1.2` agree) and every other parameter's
/// default, keys sorted. Given and defaulted values are kept apart because a preset
/// (`accuracy`) changes what a defaulted knob means: `accuracy=low` with scale left out is
/// not the same detector as `accuracy=low,scale=1.1`.
public enum DetectorConfiguration {
    public static func resolved(_ specs: [ElementSpec], registry: DetectorRegistry = .builtIns) throws -> [String] {
        try specs.map { spec in
            // A detector the registry does not know (unreachable from eval, which checks first) is described as written.
            guard let descriptor = registry[spec.name] else { return spec.description }
            let parameters = parameterText(try descriptor.parameters(for: spec))
            if parameters.isEmpty { return spec.name }
            return spec.name + (parameters.hasPrefix("defaults:") ? " " : ":") + parameters
        }
    }

    /// The parameters part of the line: `given defaults:rest` (either may be absent).
    public static func parameterText(_ parameters: DetectorParameters) -> String {
        let values = parameters.values.values
        func list(_ keys: [String]) -> String { keys.sorted().map { "\($0)=\(values[$0]!.description)" }.joined(separator: ",") }
        let given = values.keys.filter { parameters.isSet($0) }
        let defaults = values.keys.filter { !parameters.isSet($0) }
        return [given.isEmpty ? nil : list(given), defaults.isEmpty ? nil : "defaults:" + list(defaults)]
            .compactMap { $0 }.joined(separator: " ")
    }
}
