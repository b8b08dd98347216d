import ArgumentParser
import FramelabDetection
import FramelabPluginHost

/// `framelab detectors`: the detectors `--detector` accepts — built-in and plugin — with
/// their parameters.
struct DetectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detectors",
        abstract: "List the face detectors --detector accepts (built-in and plugin), with parameters, ranges and defaults.",
        discussion: """
            accuracy=low|high is a preset for scale, neighbours and min-size (low: 1.25, 3, 40 px; \
            high: 1.1, 3, 24 px); each of those given explicitly overrides the preset. \
            Plugin detectors show the parameters their plugin declares and the file they come from.
            """)

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let catalog = plugins.catalog()
        for problem in catalog.problems { printToStandardError("framelab: warning: skipped plugin: \(problem)") }
        let (registry, clashes) = catalog.detectorRegistry()
        for d in registry.descriptors {
            print("\(d.name)  — \(d.summary)" + (d.isBuiltIn ? "" : " [plugin: \(d.origin)]"))
            for p in d.parameters {
                print("    \(p.name): \(p.type), range \(p.rangeText), default \(p.defaultValue) — \(p.summary)")
            }
        }
        for (name, message) in clashes.sorted(by: { $0.key < $1.key })
        where catalog.element(named: name)?.info.kind == .detector || registry[name] != nil {
            print("clash: \(message)")
        }
    }
}
