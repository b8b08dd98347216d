import FramelabCore
import FramelabDetection
import FramelabElements
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
        used = try catalog.checkedElements(detectors, kind: .detector, clashes: clashes) { spec, _ in
            _ = try registry.descriptor(for: spec).parameters(for: spec)
        }
        self.registry = registry
    }

    /// The run attributes that say how a run used plugins (docs/plugins.md, section 8);
    /// each plugin element's file, version and checksum are rows of the run's `elements`.
    static func attributes(used: [PluginElement], isolation: IsolationFlags) -> [String: AttributeValue] {
        guard !used.isEmpty else { return [:] }
        var attributes: [String: AttributeValue] = [:]
        attributes["plugin_host_abi_version"] = .string(PluginABI.versionText)
        attributes["plugin_isolated"] = .int(isolation.isolate ? 1 : 0)
        if isolation.isolate { attributes["plugin_timeout_ns"] = .int(Int64(isolation.timeoutMilliseconds) * 1_000_000) }
        return attributes
    }
}
