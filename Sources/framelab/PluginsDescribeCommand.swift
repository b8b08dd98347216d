import ArgumentParser
import FramelabCore
import FramelabElements
import FramelabPluginHost

/// `framelab plugins describe NAME`: one element's parameters.
struct PluginsDescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe one element (built-in or plugin): kind, origin, formats, parameters with type, range, default.",
        discussion: """
            --json prints {"name", "kind", "summary", "origin", "version", "abi_version" (null for a built-in), \
            "formats", "parameters": [{"name", "type", "range", "default", "summary"}]}.
            """)

    @Argument(help: "The element's name, as given to --filter.")
    var name: String

    @OptionGroup var plugins: PluginOptions

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    struct Description: Encodable {
        let name: String, kind: String, summary: String, origin: String, version: String
        @NullWhenAbsent var abi_version: String?  // null for a built-in
        let formats: [String]
        let parameters: [ParameterJSON]
    }

    func run() throws {
        let catalog = plugins.catalogWarningOfProblems()
        let (registry, clashes) = catalog.registry()
        if let clash = clashes[name] { throw failure(FramelabError(.badInput, clash)) }
        let d: Description
        if let element = catalog.element(named: name) {
            let i = element.info
            d = Description(name: i.name, kind: i.kind.rawValue, summary: i.summary, origin: i.path, version: i.version,
                            abi_version: i.abiVersion, formats: i.formats.map(\.name),
                            parameters: i.parameters.map(ParameterJSON.init))
        } else if let f = registry[name] {
            d = Description(name: f.name, kind: "filter", summary: f.summary, origin: f.origin, version: f.version,
                            abi_version: nil, formats: f.formats.map(\.name), parameters: f.parameters.map(ParameterJSON.init))
        } else {
            let known = (registry.descriptors.map(\.name) + catalog.elements.map(\.info.name)).sorted()
            throw failure(FramelabError(.badInput, "unknown element '\(name)' (known: \(Set(known).sorted().joined(separator: ", ")); \(catalog.unknownNameHint))"))
        }
        if json { try printJSON(d); return }
        print("\(d.name) (\(d.kind)) — \(d.summary)")
        print("  origin: \(d.origin)")
        print("  version: \(d.version)" + (d.abi_version.map { "  plugin ABI: \($0)" } ?? ""))
        print("  formats: \(d.formats.joined(separator: ", "))")
        print(d.parameters.isEmpty ? "  parameters: none" : "  parameters:")
        for p in d.parameters {
            print("    \(p.name): \(p.type), range \(p.range), default \(p.default) — \(p.summary)")
        }
    }
}
