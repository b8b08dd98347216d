import ArgumentParser
import FramelabPluginHost

/// Options shared by every command that uses plugins: where to find them and whether to
/// use the cache of plugin checks.
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin-path"),
            help: "A plugin file or folder of *.so plugins and *.py element files (repeatable; ':' separates several). Also searched: $FRAMELAB_PLUGIN_PATH, then the package's own .build/plugins.",
            completion: ShellCompletion.pluginFiles)
    var pluginPaths: [String] = []

    @Flag(name: .customLong("no-plugin-cache"),
          help: "Check every plugin file in a worker process again instead of using the cache of earlier checks ($FRAMELAB_CACHE_DIR, else $XDG_CACHE_HOME/framelab, else ~/.cache/framelab; FRAMELAB_CACHE_DIR=off turns it off).")
    var noPluginCache = false

    /// The cache of plugin checks, unless turned off.
    var cache: PluginVerdictCache? { noPluginCache ? nil : PluginVerdictCache.standard() }

    /// Every plugin found, each checked by a worker process (or the cache) and none loaded
    /// into this process; rejected files are kept as problem lines. `trials`: also test-run
    /// every element with its defaults (`plugins list`).
    func catalog(trials: Bool = false) -> PluginCatalog {
        let explicit = pluginPaths.flatMap { $0.split(separator: ":").map(String.init) }
        return PluginCatalog.discover(searchPath: PluginCatalog.searchPath(explicit: pluginPaths), explicit: Set(explicit),
                                      cache: cache, trials: trials)
    }

    /// `catalog()`, with one warning line on standard error per file skipped.
    func catalogWarningOfProblems(quiet: Bool = false) -> PluginCatalog {
        let catalog = catalog()
        for problem in catalog.problems where !quiet { printToStandardError("framelab: warning: skipped plugin: \(problem)") }
        return catalog
    }
}
