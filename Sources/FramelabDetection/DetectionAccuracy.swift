import FramelabElements

/// The `accuracy=low|high` presets (like CIDetectorAccuracyLow/High) for sliding-window
/// detectors. Each maps to a scale step between pyramid levels, the neighbours a box
/// needs to be kept and the smallest face searched for; any of these knobs given
/// explicitly overrides the preset.
///
/// | preset | scale | neighbours | min-size |
/// |---|---|---|---|
/// | low  | 1.25 | 3 | 40 px |
/// | high | 1.1  | 3 | 24 px (the cascades' own window) |
public enum DetectionAccuracy: String, Sendable, CaseIterable {
    case low
    case high

    public var scaleFactor: Double { self == .low ? 1.25 : 1.1 }
    public var minNeighbours: Int { 3 }
    public var minSize: Int { self == .low ? 40 : 24 }

    /// The `accuracy` parameter every built-in detector takes (default `high`); `summary` says
    /// what the two presets mean for that detector.
    public static func parameterSpec(summary: String) -> ParameterSpec {
        ParameterSpec(name: "accuracy", type: .enumeration(allCases.map(\.rawValue)), defaultValue: .string(high.rawValue),
                      summary: summary)
    }
}
