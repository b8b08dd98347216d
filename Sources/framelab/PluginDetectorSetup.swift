import FramelabCore
import FramelabDetection
import FramelabFilters
import FramelabPluginHost
import FramelabRecording

/// What `run --detector` and `eval --detector` need from plugins: one registry of built-in
/// and plugin detectors, and every `--detector` naming a plugin element checked before any
/// frame is read — no clash, a detector not a filter, parameter values in range (errors
/// name the file) — and test-run once.
struct PluginDetectorSetup {
    let registry: DetectorRegistry
    /// The plugin elements the detector specs use, in first-use order.
    let used: [PluginElement]

    init(detectors: [String], catalog: PluginCatalog, isolation: IsolationOptions?) throws {
        let (registry, clashes) = catalog.detectorRegistry(isolation: isolation)
        var used: [PluginElement] = []
        for text in detectors {
            let spec = try ElementSpec(parsing: text)
            if let clash = clashes[spec.name] { throw FramelabError(.badInput, clash) }
            guard let element = catalog.element(named: spec.name) else { continue }
            guard element.info.kind == .detector else {
                throw FramelabError(.badInput, "'\(spec.name)' from \(element.info.path) is a filter, not a detector")
            }
            _ = try registry.descriptor(for: spec).parameters(for: spec)
            if !used.contains(where: { $0 === element }) {
                try PluginTrial.run(element)
                used.append(element)
            }
        }
        self.registry = registry
        self.used = used
    }

    /// The run attributes that say which plugins a run used (docs/plugins.md, section 8).
    static func attributes(used: [PluginElement], isolation: IsolationFlags) -> [String: AttributeValue] {
        guard !used.isEmpty else { return [:] }
        var attributes: [String: AttributeValue] = [:]
        attributes["plugin_elements"] = .strings(used.map(\.info.name))
        attributes["plugin_paths"] = .strings(used.map(\.info.path))
        attributes["plugin_versions"] = .strings(used.map(\.info.version))
        attributes["plugin_abi_versions"] = .strings(used.map(\.info.abiVersion))
        attributes["plugin_host_abi_version"] = .string(PluginABI.versionText)
        attributes["plugin_isolated"] = .int(isolation.isolate ? 1 : 0)
        if isolation.isolate { attributes["plugin_timeout_ms"] = .int(Int64(isolation.timeoutMilliseconds)) }
        return attributes
    }
}
