import FramelabCore
import FramelabElements
import FramelabPluginHost

extension PluginCatalog {
    /// The plugin elements that `--filter` or `--detector` texts name, in first-use order,
    /// each checked before any frame is read: no name clash (`clashes`, from the registry
    /// of that kind), the expected kind, parameter values in range (`validate`, whose
    /// errors name the file), and test-run once, with the parameters of its first use. Texts naming built-ins are skipped.
    func checkedElements(_ texts: [String], kind: PluginElementKind, clashes: [String: String],
                         validate: (ElementSpec, PluginElement) throws -> Void) throws -> [PluginElement] {
        var used: [PluginElement] = []
        for text in texts {
            let spec = try ElementSpec(parsing: text)
            if let clash = clashes[spec.name] { throw FramelabError(.badInput, clash) }
            guard let element = element(named: spec.name) else { continue }
            guard element.info.kind == kind else {
                throw FramelabError(.badInput, "'\(spec.name)' from \(element.info.path) is a \(element.info.kind), not a \(kind)")
            }
            try validate(spec, element)
            if !used.contains(where: { $0 === element }) {
                try PluginTrial.run(element, spec: spec)
                used.append(element)
            }
        }
        return used
    }
}
