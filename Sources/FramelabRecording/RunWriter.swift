import FramelabCore

/// Writes one run's records into its `RecordingFile`.
///
/// Thread-safe: `append` may be called from any thread and only queues the record in
/// memory. A background thread writes the queue to the file and flushes it every
/// `flushInterval` seconds, so a process killed at any moment leaves a file holding every
/// record up to the last flush. Call `finish(status:)` at the end; a writer released
/// without it finishes with status "interrupted".
public final class RunWriter: @unchecked Sendable {
    /// Seconds between background flushes (the most recent records a crash can lose).
    public static let flushInterval: Double = 0.5

    public let id: String
    public let stageNames: [String]
    /// The file's path.
    public var path: String { file.path }

    let file: RecordingFile
    let slot: RunSlot
    private let flusher: PeriodicFlusher
    private let stateLock = Lock()
    // Guarded by `stateLock`.
    private var finished = false
    private let errorBox: ErrorBox

    init(file: RecordingFile, slot: RunSlot) {
        self.file = file
        self.slot = slot
        id = slot.id
        stageNames = slot.stageNames
        let errorBox = ErrorBox()
        flusher = PeriodicFlusher(interval: Self.flushInterval) { [file, slot] in
            do throws(FramelabError) {
                try file.flush(slot)
                errorBox.set(nil)
            } catch {
                errorBox.set(error)
            }
        }
        self.errorBox = errorBox
        flusher.start()
    }

    /// The error of the latest background flush, if it failed (nil once one succeeds).
    /// Records a failed flush could not write stay queued and are tried again.
    public var lastFlushError: FramelabError? { errorBox.get() }

    // MARK: Records (cheap, any thread)

    /// Queues one row for its table (a record table, or one the run was created with).
    public func append<R: TableRow>(_ row: R) { slot.append([row]) }
    /// Queues rows for their table.
    public func append<R: TableRow>(_ rows: [R]) { slot.append(rows) }

    // MARK: File operations

    /// Sets (or replaces) an attribute of the run group. Names of the recording layer's
    /// own attributes (`status`, `stage_names`, `run_index`, `created_utc`,
    /// `finished_utc`) are refused. Each call briefly reopens the file: set several at once
    /// with `setAttributes`, or give them to `finish`.
    public func setAttribute(_ name: String, _ value: AttributeValue) throws {
        try file.setAttributes(slot, [name: value])
    }

    /// Sets (or replaces) several attributes in one change of the file.
    public func setAttributes(_ attributes: [String: AttributeValue]) throws {
        try file.setAttributes(slot, attributes)
    }

    /// Writes the queued records and flushes the file to disk now.
    public func flush() throws {
        try file.flush(slot)
    }

    /// Writes the queued records, sets `attributes` (those known only at the end), `status`
    /// and `finished_utc`, flushes, and stops the background flusher. Records appended
    /// afterwards are dropped. Calling it again after it succeeded does nothing.
    public func finish(status: String, attributes: [String: AttributeValue] = [:]) throws {
        try stateLock.withLock { () throws(FramelabError) in
            guard !finished else { return }
            flusher.stop()
            try file.finish(slot, status: status, attributes: attributes)
            finished = true
        }
    }

    deinit {
        flusher.stop()
        let done = stateLock.withLock { finished }
        if !done { try? file.finish(slot, status: Schema.Status.interrupted, attributes: [:]) }
    }
}

/// The latest background flush error, shared between the writer and its flusher thread.
private final class ErrorBox: @unchecked Sendable {
    private let lock = Lock()
    private var error: FramelabError?

    func set(_ e: FramelabError?) { lock.withLock { error = e } }
    func get() -> FramelabError? { lock.withLock { error } }
}
