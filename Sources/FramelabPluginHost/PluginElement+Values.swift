import FramelabCore
import FramelabFilters

extension PluginElement {
    /// The spec's `key=value` arguments checked against the element's declared parameters
    /// (type and range), defaults filled in. Errors name the plugin file, so the user
    /// knows which library declared the range.
    public func values(for spec: ElementSpec) throws -> ParameterValues {
        var values: [String: ParameterValue] = [:]
        for p in info.parameters { values[p.name] = p.defaultValue }
        do {
            for (key, text) in spec.arguments {
                guard let p = info.parameters.first(where: { $0.name == key }) else {
                    let known = info.parameters.isEmpty ? "it takes none" : "known: " + info.parameters.map(\.name).joined(separator: ", ")
                    throw FramelabError(.badInput, "filter '\(info.name)': unknown parameter '\(key)' (\(known))")
                }
                values[key] = try p.parse(text, element: info.name)
            }
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "\(info.path): \(error.message)")
        }
        return ParameterValues(values)
    }
}
