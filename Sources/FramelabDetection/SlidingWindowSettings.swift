import FramelabElements

/// The knobs every multi-scale window detector shares, resolved from the accuracy preset
/// and the parameters the user set explicitly.
public struct SlidingWindowSettings: Sendable, Equatable {
    public var scaleFactor: Double
    public var minNeighbours: Int
    public var minSize: Int
    /// nil: no upper limit.
    public var maxSize: Int?

    public init(scaleFactor: Double, minNeighbours: Int, minSize: Int, maxSize: Int? = nil) {
        self.scaleFactor = scaleFactor
        self.minNeighbours = minNeighbours
        self.minSize = minSize
        self.maxSize = maxSize
    }

    public init(preset: DetectionAccuracy) {
        self.init(scaleFactor: preset.scaleFactor, minNeighbours: preset.minNeighbours, minSize: preset.minSize)
    }

    /// The preset named by `accuracy`, overridden by each knob given explicitly.
    public init(_ p: DetectorParameters) {
        let preset = DetectionAccuracy(rawValue: p.string("accuracy")) ?? .high
        self.init(preset: preset)
        if p.isSet("scale") { scaleFactor = p.double("scale") }
        if p.isSet("neighbours") { minNeighbours = p.int("neighbours") }
        if p.isSet("min-size") { minSize = p.int("min-size") }
        let max = p.int("max-size")
        maxSize = max > 0 ? max : nil
    }

    /// Parameter metadata for the knobs above (defaults shown are the `high` preset's).
    public static let parameterSpecs: [ParameterSpec] = [
        DetectionAccuracy.parameterSpec(summary: "preset: low = scale 1.25, neighbours 3, min-size 40; high = scale 1.1, neighbours 3, min-size 24"),
        ParameterSpec(name: "scale", type: .float, minimum: 1.01, maximum: 4, defaultValue: .float(1.1),
                      summary: "size ratio between pyramid levels (overrides the preset)"),
        ParameterSpec(name: "neighbours", type: .int, minimum: 0, maximum: 1000, defaultValue: .int(3),
                      summary: "raw windows a box needs to be kept; 0 keeps every window ungrouped (overrides the preset)"),
        ParameterSpec(name: "min-size", type: .int, minimum: 1, maximum: 100_000, defaultValue: .int(24),
                      summary: "smallest face searched for, in pixels (overrides the preset)"),
        ParameterSpec(name: "max-size", type: .int, minimum: 0, maximum: 100_000, defaultValue: .int(0),
                      summary: "largest face searched for, in pixels; 0 = no limit"),
    ]
}
