import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabPluginHost

/// `eval --all-detectors`: every detector `framelab detectors` lists as available.
enum EvalAllDetectors {
    /// The available detectors (built-in and plugin, default parameters) not already among
    /// `besides`; each unavailable one is skipped with one warning line saying what it lacks.
    static func available(plugins: PluginOptions, besides given: [ElementSpec]) -> [ElementSpec] {
        let registry = plugins.catalog().detectorRegistry().registry
        var specs: [ElementSpec] = []
        for d in registry.descriptors where !given.contains(where: { $0.name == d.name }) {
            let missing = d.missingDefaultModelFiles
            if missing.isEmpty {
                specs.append(ElementSpec(name: d.name))
            } else {
                printToStandardError("framelab: warning: --all-detectors skips \(d.name): missing "
                                     + DetectorsCommand.missingText(missing))
            }
        }
        return specs
    }
}
