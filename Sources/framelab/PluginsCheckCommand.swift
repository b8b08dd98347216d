import ArgumentParser
import FramelabCore
import FramelabPluginHost

/// `framelab plugins check PATH`: load, validate and test-run one plugin file.
struct PluginsCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load a plugin file, validate its description and test-run each element; say exactly what is wrong.",
        discussion: "Exit status 0 when every element passes, 1 otherwise (one line per problem on standard error).")

    @Argument(help: "The plugin's shared library (.so).")
    var path: String

    func run() throws {
        let library: PluginLibrary
        do {
            library = try PluginLibrary(path: path)
        } catch {
            throw failure(error)
        }
        var failed = false
        for element in library.elements {
            do {
                try PluginTrial.run(element)
                print("\(element.info.name): ok (\(element.info.kind.rawValue) \(element.info.version), formats \(element.info.formats.map(\.name).joined(separator: ", ")))")
            } catch {
                _ = failure(error)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
        print("\(path): plugin '\(library.name)', ABI \(library.abiVersion), \(library.elements.count) element(s) accepted")
    }
}
