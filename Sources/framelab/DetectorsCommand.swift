import ArgumentParser
import FramelabDetection

/// `framelab detectors`: the detectors `--detector` accepts, with their parameters.
struct DetectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detectors",
        abstract: "List the face detectors --detector accepts, with parameters, ranges and defaults.",
        discussion: """
            accuracy=low|high is a preset for scale, neighbours and min-size (low: 1.25, 3, 40 px; \
            high: 1.1, 3, 24 px); each of those given explicitly overrides the preset.
            """)

    func run() throws {
        for d in DetectorRegistry.builtIns.descriptors {
            print("\(d.name)  — \(d.summary)")
            for p in d.parameters {
                print("    \(p.name): \(p.type), range \(p.rangeText), default \(p.defaultValue) — \(p.summary)")
            }
        }
    }
}
