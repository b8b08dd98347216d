import ArgumentParser
import FramelabDetection
import FramelabElements
import FramelabPluginHost
import Foundation

/// `framelab detectors`: the detectors `--detector` accepts — built-in and plugin — with
/// their parameters, and whether each can run with its default model files.
struct DetectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detectors",
        abstract: "List the face detectors --detector accepts (built-in and plugin), with parameters, ranges and defaults.",
        discussion: """
            Each detector is marked [available] or [unavailable] with the model files it lacks: \
            opencv-ssd, centerface and mtcnn need Datasets/models (\(ModelFiles.fetchCommand) installs them; \
            FRAMELAB_MODELS names another folder). \
            accuracy=low|high is a preset: for the cascades, scale, neighbours and min-size (low: 1.25, 3, 40 px; \
            high: 1.1, 3, 24 px); for the network detectors, the input size or smallest face (high: the \
            configuration each model was published with; low: faster). Each knob given explicitly overrides \
            the preset. Plugin detectors show the parameters their plugin declares and the file they come from. \
            --json prints {"detectors": [{"name", "summary", "origin", "available", "missing_files", \
            "parameters": [{"name", "type", "range", "default", "summary"}]}], "clashes": [...]}.
            """)

    @OptionGroup var plugins: PluginOptions

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    struct Entry: Encodable {
        let name: String, summary: String, origin: String
        let available: Bool
        let missing_files: [String]
        let parameters: [ParameterJSON]
    }

    func run() throws {
        let catalog = plugins.catalogWarningOfProblems()
        let (registry, clashes) = catalog.detectorRegistry()
        let entries = registry.descriptors.map { d in
            let missing = d.missingDefaultModelFiles
            return Entry(name: d.name, summary: d.summary, origin: d.origin, available: missing.isEmpty, missing_files: missing,
                         parameters: d.parameters.map(ParameterJSON.init))
        }
        let clashLines = clashes.sorted(by: { $0.key < $1.key }).filter { name, _ in
            catalog.element(named: name)?.info.kind == .detector || registry[name] != nil
        }.map(\.value)
        if json {
            struct Listing: Encodable { let detectors: [Entry]; let clashes: [String] }
            try printJSON(Listing(detectors: entries, clashes: clashLines))
            return
        }
        for e in entries {
            print("\(e.name)  [\(e.available ? "available" : "unavailable")] — \(e.summary)"
                  + (e.origin == DetectorDescriptor.builtInOrigin ? "" : " [plugin: \(e.origin)]"))
            if !e.available { print("    missing: " + Self.missingText(e.missing_files)) }
            for p in e.parameters {
                print("    \(p.name): \(p.type), range \(p.range), default \(p.default) — \(p.summary)")
            }
        }
        for message in clashLines { print("clash: \(message)") }
    }

    /// The missing files, and for those under the models folder the command that fetches them.
    static func missingText(_ files: [String]) -> String {
        let list = files.map { $0.hasPrefix("model=") ? $0 : "'\($0)'" }.joined(separator: ", ")
        let fetchable = files.contains { $0.hasPrefix(ModelFiles.directory) }
        return list + (fetchable ? " — \(ModelFiles.fetchCommand) installs them" : "")
    }
}
