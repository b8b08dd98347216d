/// A protocol's result for one detector: named scalar metrics (`ap_easy`,
/// `tpr_at_1000_fp_discrete`, …), named curves, and notes on how it was scored.
public struct ProtocolScores: Sendable, Equatable {
    public var evaluationProtocol: EvaluationProtocol
    public var metrics: [ProtocolMetric]
    public var curves: [ProtocolCurve]
    /// Said with the scores (for example: which WIDER setting was used and why).
    public var notes: [String]

    public init(evaluationProtocol: EvaluationProtocol, metrics: [ProtocolMetric], curves: [ProtocolCurve], notes: [String] = []) {
        self.evaluationProtocol = evaluationProtocol
        self.metrics = metrics
        self.curves = curves
        self.notes = notes
    }

    public func metric(_ name: String) -> Double? { metrics.first { $0.name == name }?.value }
    public func curve(_ name: ProtocolCurveName) -> ProtocolCurve? { curves.first { $0.name == name } }
}

/// One named number; NaN when the protocol leaves it undefined (a WIDER subset with no face).
public struct ProtocolMetric: Sendable, Equatable {
    public var name: String
    public var value: Double
    public init(_ name: String, _ value: Double) {
        self.name = name
        self.value = value
    }
}

/// The curves protocols produce; recorded in a run's `curves` table under these names.
public enum ProtocolCurveName: String, Sendable, CaseIterable {
    /// WIDER precision (y) against recall (x), per setting.
    case widerEasy = "wider_easy", widerMedium = "wider_medium", widerHard = "wider_hard", widerAll = "wider_all"
    /// FDDB's true-positive rate (y) against false positives (x).
    case fddbDiscrete = "fddb_discrete", fddbContinuous = "fddb_continuous"
}

public struct ProtocolCurve: Sendable, Equatable {
    public var name: ProtocolCurveName
    public var points: [ProtocolCurvePoint]
    public init(name: ProtocolCurveName, points: [ProtocolCurvePoint]) {
        self.name = name
        self.points = points
    }
}

/// One point: the threshold it was taken at and (x, y) in the curve's axes.
public struct ProtocolCurvePoint: Sendable, Equatable {
    public var threshold: Double, x: Double, y: Double
    public init(threshold: Double, x: Double, y: Double) {
        self.threshold = threshold; self.x = x; self.y = y
    }
}
