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
            Every plugin file is checked in a framelab-plugin-worker process (or its earlier verdict taken from \
            the cache, by the file's SHA-256); none is loaded into this process. \
            A plugin element is listed as accepted once it passed its test run on a synthetic frame; \
            a rejected one gets an indented line under it saying why, and an element whose name clashes \
            (a built-in included) is unusable. \
            Plugin files that could not be loaded, and name clashes (with a built-in filter or detector, or \
            between plugins), are listed as problems. \
            --json prints {"elements": [{"name", "kind", "origin", "version", "abi_version", "formats", \
            "status"}], "problems": [...]}; status is "accepted", "rejected: WHY" or "unusable: WHY". \
            Exit status 0, or with --strict 1 when any problem is listed or any element is not accepted.
            """)

    @OptionGroup var plugins: PluginOptions

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(name: .long, help: "Exit with status 1 when any problem is listed or any element is not accepted.")
    var strict = false

    struct Entry: Encodable {
        let name: String
        let kind: String
        let origin: String
        let version: String
        @NullWhenAbsent var abi_version: String?  // null for a built-in
        let formats: [String]
        let status: String
    }

    func run() throws {
        let catalog = plugins.catalog(trials: true)
        // A name defined twice cannot be used, whichever side it is on: the filter registry's
        // clashes and the detector registry's (a plugin named like a built-in detector).
        let clashes = catalog.registry().clashes.merging(catalog.detectorRegistry().clashes) { filter, _ in filter }
        var entries = FilterRegistry.builtIns.descriptors.map {
            Entry(name: $0.name, kind: "filter", origin: $0.origin, version: $0.version, abi_version: nil,
                  formats: $0.formats.map(\.name), status: clashes[$0.name].map { "unusable: \($0)" } ?? "accepted")
        }
        for element in catalog.elements {
            let info = element.info
            let status: String
            if let clash = clashes[info.name] {
                status = "unusable: \(clash)"
            } else {
                switch catalog.trialOutcome(element) {
                case ""?: status = "accepted"
                case let failure?: status = "rejected: \(failure)"
                case nil: status = "rejected: element \(element.label) was not test-run"
                }
            }
            entries.append(Entry(name: info.name, kind: info.kind.rawValue, origin: info.path, version: info.version,
                                 abi_version: info.abiVersion, formats: info.formats.map(\.name), status: status))
        }
        let problems = catalog.problems + clashes.keys.sorted().map { clashes[$0]! }
        if json {
            struct Listing: Encodable { let elements: [Entry]; let problems: [String] }
            try printJSON(Listing(elements: entries, problems: problems))
            try exitIfStrict(entries, problems)
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
        try exitIfStrict(entries, problems)
    }

    private func exitIfStrict(_ entries: [Entry], _ problems: [String]) throws {
        if strict && (!problems.isEmpty || entries.contains { $0.status != "accepted" }) { throw ExitCode(1) }
    }
}
