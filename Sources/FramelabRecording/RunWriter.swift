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
            // After the first write error nothing more is tried: a full disk would fail
            // every flush, and the run is being stopped (see `writeError`).
            guard errorBox.get() == nil else { return }
            do throws(FramelabError) {
                try file.flush(slot)
            } catch {
                slot.stopAccepting()
                if let handler = errorBox.setFirst(error) { handler(error) }
            }
        }
        self.errorBox = errorBox
        flusher.start()
    }

    /// The first error writing this run's records to the file (nil while all is well).
    /// From then on the run's records are dropped instead of queued, no more flushes are
    /// tried, and `finish` marks the run `failed: <the error>`, keeping what was flushed
    /// before it. A command stops the run when it learns of it (`onWriteError`).
    public var writeError: FramelabError? { errorBox.get() }

    /// Same as `writeError` (kept for callers that poll it).
    public var lastFlushError: FramelabError? { errorBox.get() }

    /// Calls `handler` once, from the flushing thread, when the first write error happens
    /// (at once if it already has), e.g. to stop the pipeline feeding this run.
    public func onWriteError(_ handler: @escaping @Sendable (FramelabError) -> Void) {
        if let error = errorBox.setHandler(handler) { handler(error) }
    }

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
        if let error = errorBox.get() { throw error }
        do throws(FramelabError) {
            try file.flush(slot)
        } catch {
            slot.stopAccepting()
            if let handler = errorBox.setFirst(error) { handler(error) }
            throw error
        }
    }

    /// Writes the queued records, sets `attributes` (those known only at the end), `status`
    /// and `finished_utc`, flushes, and stops the background flusher. Records appended
    /// afterwards are dropped. Calling it again after it succeeded does nothing.
    ///
    /// After a write error (`writeError`) the records still queued are dropped, the status
    /// becomes `failed: <the write error>` whatever `status` says, and the error is thrown
    /// once the run is marked (or, if even that cannot be written, with both reasons).
    public func finish(status: String, attributes: [String: AttributeValue] = [:]) throws {
        try stateLock.withLock { () throws(FramelabError) in
            guard !finished else { return }
            flusher.stop()
            guard let writeError = errorBox.get() else {
                do throws(FramelabError) {
                    try file.finish(slot, status: status, attributes: attributes)
                } catch {
                    guard error.kind == .io else { throw error }
                    // Writing the last records failed: the file marked the run failed if it could.
                    finished = true
                    slot.discardPending()
                    if let handler = errorBox.setFirst(error) { handler(error) }
                    if file.statusWasStored(slot) { throw error }
                    throw Self.unmarked(error)
                }
                finished = true
                return
            }
            try markFailed(writeError)
            throw writeError
        }
    }

    /// Ends a run whose records could not be written: `failed: <reason>`, queued rows dropped.
    private func markFailed(_ error: FramelabError) throws(FramelabError) {
        finished = true
        slot.discardPending()
        do throws(FramelabError) {
            try file.finish(slot, status: Schema.Status.failed(error.message), attributes: [:])
        } catch let second {
            // The status was stored though records queued at the error were not: done.
            if file.statusWasStored(slot) { return }
            throw Self.unmarked(FramelabError(.io, error.message + " (then: \(second.message))"))
        }
    }

    private static func unmarked(_ error: FramelabError) -> FramelabError {
        FramelabError(.io, error.message + "; the run could not be marked failed: "
                      + "`framelab recover` marks it interrupted once there is room")
    }

    /// Stops the run at once from any thread (a second Ctrl-C): writes what is queued and
    /// marks it `interrupted`. Errors are ignored: the process is about to exit.
    public func abandon() {
        try? finish(status: Schema.Status.interrupted)
    }

    deinit {
        flusher.stop()
        let done = stateLock.withLock { finished }
        if !done { try? file.finish(slot, status: Schema.Status.interrupted, attributes: [:]) }
    }
}

/// The latest background flush error, shared between the writer and its flusher thread.
private final class ErrorBox: @unchecked Sendable {
    typealias Handler = @Sendable (FramelabError) -> Void
    private let lock = Lock()
    private var error: FramelabError?
    private var handler: Handler?

    func get() -> FramelabError? { lock.withLock { error } }

    /// Keeps `e` if it is the first error; returns the handler to call (once) if so.
    func setFirst(_ e: FramelabError) -> Handler? {
        lock.withLock {
            guard error == nil else { return nil }
            error = e
            return handler
        }
    }

    /// Keeps `h` for the first error; returns the error if it already happened.
    func setHandler(_ h: @escaping Handler) -> FramelabError? {
        lock.withLock {
            handler = h
            return error
        }
    }
}
