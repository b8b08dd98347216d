import ArgumentParser
import FramelabCore
import FramelabFilters
import FramelabPluginHost
import Foundation

/// `framelab plugins list`: every element, built-in and plugin, with its status.
struct PluginsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List built-in and plugin elements: name, kind, version, formats, origin, and why one was rejected.",
        discussion: """
            A plugin element is listed as accepted once it passed its test run on a synthetic frame; \
            a rejected one gets an indented line under it saying why. \
            Plugin files that could not be loaded, and name clashes, are listed as problems. \
            --json prints {"elements": [{"name", "kind", "origin", "version", "abi_version", "formats", \
            "status"}], "problems": [...]}.
            """)

    @OptionGroup var plugins: PluginOptions

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    struct Entry: Encodable {
        let name: String
        let kind: String
        let origin: String
        let version: String
        let abi_version: String?
        let formats: [String]
        let status: String
    }

    func run() throws {
        let catalog = plugins.catalog()
        let (_, clashes) = catalog.registry()
        var entries = FilterRegistry.builtIns.descriptors.map {
            Entry(name: $0.name, kind: "filter", origin: $0.origin, version: $0.version, abi_version: nil,
                  formats: $0.formats.map(\.name), status: "accepted")
        }
        for element in catalog.elements {
            let info = element.info
            var status = "accepted"
            do { try PluginTrial.run(element) } catch { status = "rejected: \((error as? FramelabError)?.message ?? "\(error)")" }
            entries.append(Entry(name: info.name, kind: info.kind.rawValue, origin: info.path, version: info.version,
                                 abi_version: info.abiVersion, formats: info.formats.map(\.name), status: status))
        }
        let problems = catalog.problems + clashes.keys.sorted().map { clashes[$0]! }
        if json {
            struct Listing: Encodable { let elements: [Entry]; let problems: [String] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(Listing(elements: entries, problems: problems)), as: UTF8.self))
            return
        }
        // The name column fits the longest name (temperatureTint, highlightShadow, plugin names).
        let nameWidth = entries.map(\.name.count).max().map { max($0, 4) } ?? 4
        print("name".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " kind     version  formats                    origin")
        for e in entries {
            print(e.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " "
                  + e.kind.padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                  + e.version.padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                  + e.formats.joined(separator: ",").padding(toLength: 26, withPad: " ", startingAt: 0) + " "
                  + e.origin + (e.status == "accepted" ? "" : "\n    " + e.status))
        }
        for p in problems { print("problem: \(p)") }
    }
}
