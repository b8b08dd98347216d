import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabFilters

/// The `elements` rows of a run: for each filter and detector spec, the stage it ran in,
/// every parameter's value (defaults filled in), where it came from, and the SHA-256 of
/// its plugin library and model files (with each model's licence).
public enum RunElements {
    /// `stages[i]`: the stage filter spec i ran in (fused recipes put several in one).
    /// `plugins`: the library path and version of each plugin element used, by element name.
    public typealias PluginFiles = [String: (path: String, version: String)]

    public static func filterRows(_ filters: [ElementSpec], registry: FilterRegistry, stages: [Int],
                                  plugins: PluginFiles = [:]) throws -> [ElementRow] {
        try zip(filters, stages).map { spec, stage -> ElementRow in
            let d = try registry.descriptor(for: spec)
            let values = try d.parameterValues(spec).values.mapValues(\.description)
            let params = values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: ",")
            return ElementRow(stage: stage, kind: "filter", element: d.name, params: params,
                              plugin: plugins[d.name] ?? (d.origin == "built-in" ? nil : (d.origin, d.version)),
                              modelPaths: modelFile(values).map { [$0] } ?? [])
        }
    }

    /// Detectors run in consecutive stages, one each, from `firstStage`.
    public static func detectorRows(_ detectors: [ElementSpec], registry: DetectorRegistry, firstStage: Int,
                                    plugins: PluginFiles = [:]) throws -> [ElementRow] {
        try detectors.enumerated().map { k, spec -> ElementRow in
            let d = try registry.descriptor(for: spec)
            let parameters = try d.parameters(for: spec)
            return ElementRow(stage: firstStage + k, kind: "detector", element: d.name,
                              params: DetectorConfiguration.parameterText(parameters),
                              plugin: plugins[d.name] ?? (d.isBuiltIn ? nil : (d.origin, "")),
                              modelPaths: d.modelFiles(for: parameters))
        }
    }

    /// The model file a filter loads: its `model` or `cascade` parameter, when that names a file
    /// (detectors say which files they load: `DetectorDescriptor.modelFiles`).
    static func modelFile(_ values: [String: String]) -> String? {
        for key in ["model", "cascade"] {
            if let path = values[key], !path.isEmpty { return path }
        }
        return nil
    }
}
