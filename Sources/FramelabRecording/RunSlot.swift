import CHDF5
import FramelabCore

/// One run being written: the rows waiting in memory and, while the file is open for
/// appending, the run's tables. Owned by its `RecordingFile`; `RunWriter` is the public face.
///
/// Appends only take `bufferLock`. Everything else runs with the HDF5 lock held, and
/// takes `bufferLock` inside it (never the other way round).
final class RunSlot: @unchecked Sendable {
    let id: String
    let stageNames: [String]
    /// Every table of the run, in the order their rows are written at a flush.
    let tables: [TableLayout]

    private let bufferLock = Lock()
    /// Packed rows waiting for the next flush, by table name.
    private var pending: [String: Pending] = [:]
    private var accepting = true

    private var group: H5Handle?
    private var open: [String: GrowableTable] = [:]
    /// Rows of each table known to be on disk (as of the last successful flush or close):
    /// after a write error, tables are cut back to these (the rows after them may be
    /// missing from the disk even where the table's size counts them). HDF5 lock held.
    private(set) var flushedRows: [String: Int] = [:]

    struct Pending {
        var bytes: [UInt8] = []
        var rows = 0
    }

    init(id: String, stageNames: [String], tables: [TableLayout]) {
        self.id = id
        self.stageNames = stageNames
        self.tables = tables
    }

    // MARK: Buffering (any thread)

    /// Queues `rows` for their table; a table the run does not have is a programming error.
    func append<R: TableRow>(_ rows: [R]) {
        guard !rows.isEmpty else { return }
        let name = R.layout.name
        precondition(tables.contains { $0.name == name }, "rows for table '\(name)', which run '\(id)' does not have")
        let bytes = R.pack(rows)
        bufferLock.withLock {
            guard accepting else { return }
            pending[name, default: Pending()].bytes += bytes
            pending[name, default: Pending()].rows += rows.count
        }
    }

    /// From now on appends are dropped (the run is finishing or its file closed).
    func stopAccepting() { bufferLock.withLock { accepting = false } }

    var isAccepting: Bool { bufferLock.withLock { accepting } }

    /// Drops the queued rows and every later append (they could not be written).
    func discardPending() {
        bufferLock.withLock {
            accepting = false
            pending = [:]
        }
    }

    // MARK: HDF5 side (HDF5 lock held)

    var isAttached: Bool { group != nil }

    /// Opens the run's group and tables in `file` (after the file was reopened).
    func attach(to file: hid_t) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let group = try H5Handle.make(.group, "cannot open run group '\(id)'") {
                h5.H5Gopen2(file, "\(Schema.runsGroup)/\(id)", fl_h5p_default())
            }
            self.group = group
            for table in tables {
                let opened = try GrowableTable.open(in: group.id, name: table.name)
                open[table.name] = opened
                flushedRows[table.name] = opened.count
            }
        }
    }

    /// Records that every row written so far reached the disk (after a successful flush).
    func markFlushed() {
        HDF5.locked { for (name, table) in open { flushedRows[name] = table.count } }
    }

    /// Closes the run's HDF5 objects (so the file can be closed and reopened).
    func detach() {
        HDF5.locked {
            open.values.forEach { $0.close() }
            open = [:]
            group.map { _ = $0.close() }
            group = nil
        }
    }

    /// Writes the rows waiting in memory to the tables. Returns whether anything was
    /// written. On failure the rows not written go back to the front of the queue.
    @discardableResult
    func writePending() throws(HDF5Error) -> Bool {
        try HDF5.locked { () throws(HDF5Error) -> Bool in
            guard group != nil else { return false }
            var batch = bufferLock.withLock { () -> [String: Pending] in
                defer { pending = [:] }
                return pending
            }
            if batch.isEmpty { return false }
            do throws(HDF5Error) {
                for table in tables {
                    guard let rows = batch[table.name], let dataset = open[table.name] else { continue }
                    try dataset.append(rows.bytes, rows: rows.rows)
                    batch[table.name] = nil
                }
            } catch {
                requeue(batch)
                throw error
            }
            return true
        }
    }

    private func requeue(_ batch: [String: Pending]) {
        bufferLock.withLock {
            for (name, rows) in batch {
                let later = pending[name] ?? Pending()
                pending[name] = Pending(bytes: rows.bytes + later.bytes, rows: rows.rows + later.rows)
            }
        }
    }

    /// Rows waiting in memory (for tests and diagnostics).
    var pendingCount: Int {
        bufferLock.withLock { pending.values.reduce(0) { $0 + $1.rows } }
    }
}
