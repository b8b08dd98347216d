import ArgumentParser
import FramelabCore
import FramelabElements
import FramelabPluginHost

/// `framelab plugins describe NAME`: one element's parameters.
struct PluginsDescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe one element (built-in or plugin): kind, origin, formats, parameters with type, range, default.")

    @Argument(help: "The element's name, as given to --filter.")
    var name: String

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let catalog = plugins.catalogWarningOfProblems()
        let (registry, clashes) = catalog.registry()
        if let clash = clashes[name] { throw failure(FramelabError(.badInput, clash)) }
        let lines: [String]
        let parameters: [ParameterSpec]
        if let element = catalog.element(named: name) {
            let i = element.info
            lines = ["\(i.name) (\(i.kind.rawValue)) — \(i.summary)",
                     "  origin: \(i.path)", "  version: \(i.version)  plugin ABI: \(i.abiVersion)",
                     "  formats: \(i.formats.map(\.name).joined(separator: ", "))"]
            parameters = i.parameters
        } else if let d = registry[name] {
            lines = ["\(d.name) (filter) — \(d.summary)", "  origin: \(d.origin)", "  version: \(d.version)",
                     "  formats: \(d.formats.map(\.name).joined(separator: ", "))"]
            parameters = d.parameters
        } else {
            let known = (registry.descriptors.map(\.name) + catalog.elements.map(\.info.name)).sorted()
            throw failure(FramelabError(.badInput, "unknown element '\(name)' (known: \(Set(known).sorted().joined(separator: ", ")); \(catalog.unknownNameHint))"))
        }
        print(lines.joined(separator: "\n"))
        print(parameters.isEmpty ? "  parameters: none" : "  parameters:")
        for p in parameters {
            print("    \(p.name): \(p.type), range \(p.rangeText), default \(p.defaultValue) — \(p.summary)")
        }
    }
}
