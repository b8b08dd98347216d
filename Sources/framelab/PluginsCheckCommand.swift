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
            Exit status 0 when every element passes, 1 otherwise (one line per problem on standard error). \
            --json prints {"path", "plugin", "abi_version", "rejection" (why the file was refused, or null), \
            "elements": [{"name", "kind", "version", "formats", "accepted", "problem" (or null)}], "accepted"}, \
            whatever the outcome.
            """)

    @Argument(help: "The plugin's shared library (.so), or a Python element file (.py).", completion: ShellCompletion.pluginFiles)
    var path: String

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    struct Element: Encodable {
        let name: String, kind: String, version: String, formats: [String]
        let accepted: Bool
        @NullWhenAbsent var problem: String?
    }

    struct Outcome: Encodable {
        let path: String, plugin: String?, abi_version: String?, rejection: String?
        let elements: [Element]
        var accepted: Bool { rejection == nil && elements.allSatisfy(\.accepted) }
        // By hand: absent values are null, and `accepted` is derived.
        func encode(to encoder: any Encoder) throws {
            enum Key: String, CodingKey { case path, plugin, abi_version, rejection, elements, accepted }
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(path, forKey: .path); try c.encode(plugin, forKey: .plugin)
            try c.encode(abi_version, forKey: .abi_version); try c.encode(rejection, forKey: .rejection)
            try c.encode(elements, forKey: .elements); try c.encode(accepted, forKey: .accepted)
        }
    }

    func run() throws {
        let (file, verdict) = PluginCatalog.check(path, cache: PluginVerdictCache.standard())
        let elements: [Element] = verdict.rejection != nil ? [] : verdict.elementInfos(path: file).map { info in
            let outcome = verdict.trialOutcome(info.name) ?? "element '\(info.name)' (\(file)): not tried"
            return Element(name: info.name, kind: info.kind.rawValue, version: info.version, formats: info.formats.map(\.name),
                           accepted: outcome.isEmpty, problem: outcome.isEmpty ? nil : outcome)
        }
        let outcome = Outcome(path: file, plugin: verdict.libraryName, abi_version: verdict.abiVersion,
                              rejection: verdict.rejection, elements: elements)
        if json { try printJSON(outcome) }
        if let rejection = verdict.rejection { throw failure(FramelabError(.badInput, rejection)) }
        for e in elements {
            if let problem = e.problem {
                _ = failure(FramelabError(.processing, problem))
            } else if !json {
                print("\(e.name): ok (\(e.kind) \(e.version), formats \(e.formats.joined(separator: ", ")))")
            }
        }
        if !outcome.accepted { throw ExitCode(1) }
        if !json {
            print("\(path): plugin '\(verdict.libraryName ?? file)', ABI \(verdict.abiVersion ?? "?"), \(elements.count) element(s) accepted")
        }
    }
}
