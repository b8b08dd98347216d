import ArgumentParser
import FramelabFilters
import FramelabPluginHost

/// `framelab filters`: the filters `--filter` accepts, with their parameters.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters --filter accepts, with parameters, ranges and defaults.")

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        for d in plugins.catalog().registry().registry.descriptors {
            print("\(d.name)  [\(d.origin); formats \(d.formats.map(\.name).joined(separator: ", "))]")
            print("    \(d.summary)")
            for p in d.parameters {
                print("    \(p.name): \(p.type), range \(p.rangeText), default \(p.defaultValue) — \(p.summary)")
            }
        }
    }
}
