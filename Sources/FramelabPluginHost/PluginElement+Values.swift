import FramelabCore
import FramelabElements

extension PluginElement {
    /// The spec's `key=value` arguments checked against the element's declared parameters
    /// (type and range), defaults filled in. Errors name the plugin file, so the user
    /// knows which library declared the range.
    public func values(for spec: ElementSpec) throws -> ParameterValues {
        do {
            return try ParameterValues(checking: spec, against: info.parameters, kind: info.kind)
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "\(info.path): \(error.message)")
        }
    }
}
