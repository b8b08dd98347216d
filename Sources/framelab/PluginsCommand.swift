import ArgumentParser
import Foundation
import FramelabCore
import FramelabPluginHost

/// `framelab plugins`: inspect, check and write plugins.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List, describe and check plugins; find the plugin SDK header; start a new plugin project.",
        discussion: """
            Plugins are shared libraries exporting framelab_plugin_entry (see docs/plugins.md). \
            They are found through --plugin-path, $FRAMELAB_PLUGIN_PATH and the package's .build/plugins. \
            Each file is loaded, described and its elements test-run on a synthetic frame in a \
            framelab-plugin-worker process before anything is accepted; framelab itself loads a plugin only \
            when a command runs one of its elements in process. Verdicts are cached by the file's SHA-256 \
            ($FRAMELAB_CACHE_DIR, else $XDG_CACHE_HOME/framelab, else ~/.cache/framelab; --no-plugin-cache).
            """,
        subcommands: [PluginsListCommand.self, PluginsDescribeCommand.self, PluginsCheckCommand.self,
                      PluginsSDKCommand.self, PluginsNewCommand.self])
}

/// `framelab plugins sdk`: the header a plugin author compiles against.
struct PluginsSDKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdk",
        abstract: "Print the plugin header (framelab_plugin.h), its path (--path) or its folder (--include).",
        discussion: "Example: cc -shared -fPIC -I\"$(framelab plugins sdk --include)\" my_filter.c -o libmy_filter.so")

    @Flag(name: .long, help: "Print the header's path.")
    var path = false

    @Flag(name: .long, help: "Print the folder to pass to the compiler with -I.")
    var include = false

    func run() throws {
        guard let folder = PluginSDK.includeFolder() else {
            throw failure(FramelabError(.io, "cannot find \(PluginSDK.headerName) near this framelab executable"))
        }
        let header = folder + "/" + PluginSDK.headerName
        if path { print(header); return }
        if include { print(folder); return }
        print(try String(contentsOfFile: header, encoding: .utf8), terminator: "")
    }
}
