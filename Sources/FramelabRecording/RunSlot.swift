import CHDF5
import FramelabCore

/// One run being written: the records waiting in memory and, while the file is open
/// for appending, the run's four datasets. Owned by its `RecordingFile`; `RunWriter` is
/// the public face.
///
/// Appends only take `bufferLock`. Everything else runs with the HDF5 lock held, and
/// takes `bufferLock` inside it (never the other way round).
final class RunSlot: @unchecked Sendable {
    let id: String
    let stageNames: [String]

    private let bufferLock = Lock()
    private var pending = Pending()
    private var accepting = true

    private var datasets: Datasets?
    /// Growing tables (name → column count), opened with the datasets on each attach.
    private var growingColumns: [String: Int] = [:]
    private var growing: [String: GrowingTable] = [:]

    struct Pending {
        var frames: [FrameRecord] = []
        var timings: [StageTimingRecord] = []
        var failures: [FailureRecord] = []
        var events: [EventRecord] = []
        /// Rows for growing tables, by table name, row after row.
        var tableRows: [String: [Double]] = [:]

        var isEmpty: Bool {
            frames.isEmpty && timings.isEmpty && failures.isEmpty && events.isEmpty && tableRows.isEmpty
        }
    }

    private struct Datasets {
        let group: H5Handle
        let frames: AppendableDataset
        let timings: AppendableDataset
        let failures: AppendableDataset
        let events: AppendableDataset

        func close() {
            [frames.handle, timings.handle, failures.handle, events.handle, group].forEach { $0.close() }
        }
    }

    init(id: String, stageNames: [String]) {
        self.id = id
        self.stageNames = stageNames
    }

    // MARK: Buffering (any thread)

    func append(_ r: FrameRecord) { bufferLock.withLock { if accepting { pending.frames.append(r) } } }
    func append(_ r: StageTimingRecord) { bufferLock.withLock { if accepting { pending.timings.append(r) } } }
    func append(_ r: FailureRecord) { bufferLock.withLock { if accepting { pending.failures.append(r) } } }
    func append(_ r: EventRecord) { bufferLock.withLock { if accepting { pending.events.append(r) } } }
    func append(rows: [[Double]], to table: String) {
        guard !rows.isEmpty else { return }
        bufferLock.withLock { if accepting { pending.tableRows[table, default: []] += rows.flatMap { $0 } } }
    }

    /// From now on appends are dropped (the run is finishing or its file closed).
    func stopAccepting() { bufferLock.withLock { accepting = false } }

    var isAccepting: Bool { bufferLock.withLock { accepting } }

    // MARK: HDF5 side (HDF5 lock held)

    var isAttached: Bool { datasets != nil }

    /// Opens the run's group and datasets in `file` (after the file was reopened).
    func attach(to file: hid_t) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let group = try H5Handle.make(.group, "cannot open run group '\(id)'") {
                H5Gopen2(file, "\(Schema.runsGroup)/\(id)", fl_h5p_default())
            }
            datasets = Datasets(
                group: group,
                frames: try AppendableDataset.open(in: group.id, name: Schema.Dataset.frames.rawValue),
                timings: try AppendableDataset.open(in: group.id, name: Schema.Dataset.timings.rawValue),
                failures: try AppendableDataset.open(in: group.id, name: Schema.Dataset.failures.rawValue),
                events: try AppendableDataset.open(in: group.id, name: Schema.Dataset.events.rawValue))
            growing = [:]
            for (name, columns) in growingColumns {
                growing[name] = try GrowingTable.open(in: group.id, name: name, columns: columns)
            }
        }
    }

    /// A growing table created in the run's group; it is opened on the next attach.
    func registerGrowingTable(_ name: String, columns: Int) {
        HDF5.locked { growingColumns[name] = columns }
    }

    /// Closes the run's HDF5 objects (so the file can be closed and reopened).
    func detach() {
        HDF5.locked {
            datasets?.close()
            datasets = nil
            growing.values.forEach { $0.handle.close() }
            growing = [:]
        }
    }

    /// Writes the records waiting in memory to the datasets. Returns whether anything was
    /// written. On failure the records not written go back to the front of the queue.
    @discardableResult
    func writePending() throws(HDF5Error) -> Bool {
        try HDF5.locked { () throws(HDF5Error) -> Bool in
            guard let datasets else { return false }
            var batch = bufferLock.withLock { () -> Pending in
                defer { pending = Pending() }
                return pending
            }
            if batch.isEmpty { return false }
            do throws(HDF5Error) {
                try FrameRecord.append(batch.frames, to: datasets.frames)
                batch.frames = []
                try StageTimingRecord.append(batch.timings, to: datasets.timings)
                batch.timings = []
                try FailureRecord.append(batch.failures, to: datasets.failures)
                batch.failures = []
                try EventRecord.append(batch.events, to: datasets.events)
                batch.events = []
                for (name, values) in batch.tableRows {
                    guard let table = growing[name] else {
                        preconditionFailure("rows for table '\(name)', which run '\(id)' does not have")
                    }
                    try table.append(values)
                    batch.tableRows[name] = nil
                }
            } catch {
                requeue(batch)
                throw error
            }
            return true
        }
    }

    private func requeue(_ batch: Pending) {
        bufferLock.withLock {
            pending.frames = batch.frames + pending.frames
            pending.timings = batch.timings + pending.timings
            pending.failures = batch.failures + pending.failures
            pending.events = batch.events + pending.events
            for (name, values) in batch.tableRows { pending.tableRows[name] = values + (pending.tableRows[name] ?? []) }
        }
    }

    /// Records waiting in memory (for tests and diagnostics).
    var pendingCount: Int {
        bufferLock.withLock {
            pending.frames.count + pending.timings.count + pending.failures.count + pending.events.count
                + pending.tableRows.count
        }
    }
}
