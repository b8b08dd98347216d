/// The four record tables every run has, as rows (docs/hdf5-schema.md, "The record tables").
extension FrameRecord: TableRow {
    public static let layout = TableLayout(name: "frames", columns: [
        TableColumn("index", .int64), TableColumn("pts_ns", .int64), TableColumn("arrival_ns", .int64),
        TableColumn("dropped", .uint8), TableColumn("failed", .uint8),
        TableColumn("queue_wait_ns", .int64), TableColumn("latency_ns", .int64),
    ], chunkRows: 1024)

    /// Version-1 files have no queue wait or latency: they read as -1 (not known).
    public static var absentRow: [UInt8] {
        var row = FrameRecord(index: 0, ptsNs: 0, arrivalNs: 0, dropped: false, failed: false)
        row.queueWaitNs = -1
        row.latencyNs = -1
        return pack([row])
    }

    public func encode(to e: inout RowEncoder) {
        e.int64(index)
        e.int64(ptsNs)
        e.int64(arrivalNs)
        e.bool(dropped)
        e.bool(failed)
        e.int64(queueWaitNs)
        e.int64(latencyNs)
    }

    public init(from d: inout RowDecoder) {
        self.init(index: d.int64(), ptsNs: d.int64(), arrivalNs: d.int64(), dropped: d.bool(), failed: d.bool(),
                  queueWaitNs: d.int64(), latencyNs: d.int64())
    }
}

extension StageTimingRecord: TableRow {
    public static let layout = TableLayout(name: "timings", columns: [
        TableColumn("frame", .int64), TableColumn("stage", .stage), TableColumn("start_ns", .int64),
        TableColumn("duration_ns", .int64),
    ], chunkRows: 4096)

    public func encode(to e: inout RowEncoder) {
        e.int64(frame)
        e.int32(stage)
        e.int64(startNs)
        e.int64(durationNs)
    }

    public init(from d: inout RowDecoder) {
        self.init(frame: d.int64(), stage: d.int32(), startNs: d.int64(), durationNs: d.int64())
    }
}

extension FailureRecord: TableRow {
    public static let layout = TableLayout(name: "failures", columns: [
        TableColumn("frame", .int64), TableColumn("stage", .stage), TableColumn("reason", .text(bytes: Schema.reasonBytes)),
    ], chunkRows: 64)

    public func encode(to e: inout RowEncoder) {
        e.int64(frame)
        e.int32(stage)
        e.text(reason, bytes: Schema.reasonBytes)
    }

    public init(from d: inout RowDecoder) {
        self.init(frame: d.int64(), stage: d.int32(), reason: d.text(bytes: Schema.reasonBytes))
    }
}

extension EventRecord: TableRow {
    public static let layout = TableLayout(name: "events", columns: [
        TableColumn("frame", .int64), TableColumn("time_ns", .int64), TableColumn("kind", .text(bytes: Schema.kindBytes)),
        TableColumn("detail", .text(bytes: Schema.detailBytes)),
    ], chunkRows: 64)

    public func encode(to e: inout RowEncoder) {
        e.int64(frame)
        e.int64(timeNs)
        e.text(kind, bytes: Schema.kindBytes)
        e.text(detail, bytes: Schema.detailBytes)
    }

    public init(from d: inout RowDecoder) {
        self.init(frame: d.int64(), timeNs: d.int64(), kind: d.text(bytes: Schema.kindBytes),
                  detail: d.text(bytes: Schema.detailBytes))
    }
}

extension Schema {
    /// The tables every run has, created with it.
    static let recordTables: [TableLayout] = [FrameRecord.layout, StageTimingRecord.layout, FailureRecord.layout,
                                              EventRecord.layout]
}
