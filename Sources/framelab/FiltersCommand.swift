import ArgumentParser
import FramelabFilters

/// `framelab filters`: the filters `--filter` accepts, with their parameters.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters --filter accepts, with parameters, ranges and defaults.")

    func run() throws {
        for d in FilterRegistry.builtIns.descriptors {
            print("\(d.name)  [\(d.origin); formats \(d.formats.map(\.name).joined(separator: ", "))]")
            print("    \(d.summary)")
            if d.hasPaths { print("    paths: \(d.paths.map(\.rawValue).joined(separator: ", "))") }
            for p in d.parameters {
                print("    \(p.name): \(p.type), range \(p.rangeText), default \(p.defaultValue) — \(p.summary)")
            }
        }
    }
}
