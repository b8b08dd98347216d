import FramelabDatasets
import FramelabEvaluation
import FramelabRecording

/// The rows an evaluation adds for the official protocols (docs/hdf5-schema.md, "Detection
/// tables"): each detector's protocol metrics, and which WIDER subsets keep each face.
/// Both tables are optional: files written before them, or runs without such ground truth,
/// have none.

extension EvaluationProtocol {
    /// Stored codes of the `protocol` column (an enumeration over int8).
    var storedCode: Int8 { Int8(EvaluationProtocol.allCases.firstIndex(of: self)!) }

    static let column = ColumnType.named8(allCases.map { ($0.rawValue, $0.storedCode) })
}

/// One metric of one protocol for one detector: a row of `protocol_scores`.
public struct ProtocolScoreRow: TableRow, Equatable {
    public var detector: Int32
    public var evaluationProtocol: EvaluationProtocol
    public var metric: String
    public var value: Double

    public static let metricBytes = 64
    public static let layout = TableLayout(name: "protocol_scores", columns: [
        TableColumn("detector", .stage), TableColumn("protocol", EvaluationProtocol.column),
        TableColumn("metric", .text(bytes: metricBytes)), TableColumn("value", .float64),
    ], chunkRows: 64)

    public init(detector: Int32, evaluationProtocol: EvaluationProtocol, metric: String, value: Double) {
        self.detector = detector; self.evaluationProtocol = evaluationProtocol; self.metric = metric; self.value = value
    }

    public func encode(to e: inout RowEncoder) {
        e.int32(detector); e.int8(evaluationProtocol.storedCode); e.text(metric, bytes: Self.metricBytes); e.float64(value)
    }

    public init(from d: inout RowDecoder) {
        detector = d.int32()
        let code = d.int8()
        evaluationProtocol = EvaluationProtocol.allCases.first { $0.storedCode == code } ?? .framelab
        metric = d.text(bytes: Self.metricBytes)
        value = d.float64()
    }
}

/// One annotated face's WIDER subset membership: a row of `wider_subsets` (only for ground
/// truth that says it: the WIDER kit's .mat files).
public struct WiderSubsetRow: TableRow, Equatable {
    public var frame: Int64
    public var face: Int32
    public var subsets: WiderSubsets

    public static let layout = TableLayout(name: "wider_subsets", columns: [
        TableColumn("frame", .int64), TableColumn("face", .int32),
        TableColumn("easy", .uint8), TableColumn("medium", .uint8), TableColumn("hard", .uint8),
    ], chunkRows: 1024)

    public init(frame: Int64, face: Int32, subsets: WiderSubsets) {
        self.frame = frame; self.face = face; self.subsets = subsets
    }

    public func encode(to e: inout RowEncoder) {
        e.int64(frame); e.int32(face)
        for s in [WiderSubsets.easy, .medium, .hard] { e.bool(subsets.contains(s)) }
    }

    public init(from d: inout RowDecoder) {
        frame = d.int64(); face = d.int32()
        let easy = d.bool(), medium = d.bool(), hard = d.bool()
        subsets = WiderSubsets(rawValue: (easy ? WiderSubsets.easy.rawValue : 0) | (medium ? WiderSubsets.medium.rawValue : 0)
                               | (hard ? WiderSubsets.hard.rawValue : 0))
    }
}
