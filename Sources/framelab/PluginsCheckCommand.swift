import ArgumentParser
import FramelabCore
import FramelabPluginHost

/// `framelab plugins check PATH`: load, validate and test-run one plugin file — in a worker
/// process, so a file that crashes, exits or hangs is diagnosed in words.
struct PluginsCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load a plugin file, validate its description and test-run each element; say exactly what is wrong.",
        discussion: """
            Everything happens in a framelab-plugin-worker process (a file whose constructors crash, exit or hang \
            is reported, not fatal), always afresh: the outcome replaces the cached one. \
            Exit status 0 when every element passes, 1 otherwise (one line per problem on standard error).
            """)

    @Argument(help: "The plugin's shared library (.so).")
    var path: String

    func run() throws {
        let (file, verdict) = PluginCatalog.check(path, cache: PluginVerdictCache.standard())
        if let rejection = verdict.rejection { throw failure(FramelabError(.badInput, rejection)) }
        let elements = verdict.elementInfos(path: file)
        var failed = false
        for info in elements {
            let outcome = verdict.trialOutcome(info.name) ?? "element '\(info.name)' (\(file)): not tried"
            if outcome.isEmpty {
                print("\(info.name): ok (\(info.kind.rawValue) \(info.version), formats \(info.formats.map(\.name).joined(separator: ", ")))")
            } else {
                _ = failure(FramelabError(.processing, outcome))
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
        print("\(path): plugin '\(verdict.libraryName ?? file)', ABI \(verdict.abiVersion ?? "?"), \(elements.count) element(s) accepted")
    }
}
