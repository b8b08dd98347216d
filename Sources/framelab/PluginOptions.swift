import ArgumentParser
import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabFilters
import FramelabPluginHost
import FramelabPipeline
import FramelabRecording
import FramelabRuns

/// Options shared by every command that uses plugins: where to find them and, for
/// `run`, how to isolate them.
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin-path"),
            help: "A plugin file or folder of *.so plugins (repeatable; ':' separates several). Also searched: $FRAMELAB_PLUGIN_PATH, then the package's own .build/plugins.")
    var pluginPaths: [String] = []

    /// Every plugin found; rejected files are kept as problem lines.
    func catalog() -> PluginCatalog {
        let explicit = pluginPaths.flatMap { $0.split(separator: ":").map(String.init) }
        return PluginCatalog.discover(searchPath: PluginCatalog.searchPath(explicit: pluginPaths), explicit: Set(explicit))
    }
}

/// `run`'s isolation flags.
struct IsolationFlags: ParsableArguments {
    @Flag(name: .long, help: "Run plugin filters and detectors in a child process sharing frame memory; a crash or hang fails the frame, not the run.")
    var isolate = false

    @Option(name: .customLong("plugin-timeout"),
            help: "With --isolate: milliseconds a plugin may take for one frame before its worker is killed (default: \(IsolationOptions.defaultTimeoutMilliseconds)).")
    var timeout: Int?

    var timeoutMilliseconds: Int { timeout ?? IsolationOptions.defaultTimeoutMilliseconds }

    @Flag(name: .customLong("restart-plugins"), help: "With --isolate: start a new worker after one crashed or hung, and go on.")
    var restart = false

    func validate() throws {
        if let timeout, timeout < 1 { throw usageError("--plugin-timeout must be at least 1 ms, got \(timeout)") }
        if timeout != nil && !isolate { throw usageError("--plugin-timeout needs --isolate") }
        if restart && !isolate { throw usageError("--restart-plugins needs --isolate") }
    }

    var options: IsolationOptions? {
        isolate ? IsolationOptions(timeoutMilliseconds: timeoutMilliseconds, restart: restart) : nil
    }
}

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
        let catalog = plugins.catalog()
        for problem in catalog.problems { printToStandardError("framelab: warning: skipped plugin: \(problem)") }
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
