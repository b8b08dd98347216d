import ArgumentParser
import FramelabPluginHost

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
