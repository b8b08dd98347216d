import ArgumentParser
import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabFilters
import FramelabPluginHost
import FramelabPipeline
import FramelabRecording
import FramelabRuns

/// What `run` needs from plugins: one registry of built-in and plugin filters and one of
/// built-in and plugin detectors, checked before any frame is read, and the attributes
/// the run records about the plugins it uses.
struct PluginRunSetup {
    let registry: FilterRegistry
    let detectorRegistry: DetectorRegistry
    let attributes: [String: AttributeValue]
    /// Each plugin element used: its library and version, by element name (the run's `elements` rows).
    let pluginFiles: RunElements.PluginFiles

    /// Every `--filter` naming a plugin element is checked here — no clash, a filter not a
    /// detector, parameter values in range (errors name the file) — and test-run once;
    /// every `--detector` likewise (`PluginDetectorSetup`).
    init(filters: [String], detectors: [String] = [], plugins: PluginOptions, isolation: IsolationFlags) throws {
        let catalog = plugins.catalogWarningOfProblems()
        var isolationOptions = isolation.options
        let usesPlugins = try filters.contains { catalog.element(named: try ElementSpec(parsing: $0).name) != nil }
        if isolationOptions != nil && usesPlugins {
            // Frames made from here on live in shared memory the plugin workers map.
            let arena = try SharedFrameArena()
            PixelAllocation.install(arena)
            isolationOptions?.arena = arena
        }
        let (registry, clashes) = catalog.registry(isolation: isolationOptions)
        var used = try catalog.checkedElements(filters, kind: .filter, clashes: clashes) { spec, element in
            _ = try element.values(for: spec)
        }
        let detectorSetup = try PluginDetectorSetup(detectors: detectors, catalog: catalog, isolation: isolationOptions)
        used += detectorSetup.used
        self.registry = registry
        detectorRegistry = detectorSetup.registry
        attributes = PluginDetectorSetup.attributes(used: used, isolation: isolation)
        pluginFiles = Dictionary(used.map { ($0.info.name, (path: $0.info.path, version: $0.info.version)) },
                                 uniquingKeysWith: { a, _ in a })
    }
}
