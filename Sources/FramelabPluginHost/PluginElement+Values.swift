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

    /// A live change `name=text` checked against the element's declared parameter: its
    /// index in description order and its value.
    func liveChange(_ name: String, _ text: String) throws -> (index: Int, value: ParameterValue) {
        guard let index = info.parameters.firstIndex(where: { $0.name == name }) else {
            let known = info.parameters.isEmpty ? "it takes none" : "known: " + info.parameters.map(\.name).joined(separator: ", ")
            throw FramelabError(.badInput, "\(info.path): \(info.kind.label(info.name)): unknown parameter '\(name)' (\(known))")
        }
        do {
            return (index, try info.parameters[index].parse(text, element: info.name, kind: info.kind))
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "\(info.path): \(error.message)")
        }
    }
}
