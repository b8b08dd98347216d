#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHDF5
import FramelabCore

/// An HDF5 file of recorded runs, open for adding runs (see docs/hdf5-schema.md).
///
/// While runs are being written the file is open in HDF5's single-writer/multiple-reader
/// (SWMR) mode, whose ordered metadata writes keep the file readable however the process
/// dies. SWMR forbids creating objects, so creating a run, setting an attribute and
/// finishing a run briefly close the file and reopen it in plain read-write mode; with
/// no run being written the file is closed at the HDF5 level and fully consistent.
///
/// Only one writer may have a file open at a time (another process or another
/// `RecordingFile` on the same file gets an error). Readers — `RecordingReader`, h5py
/// with `swmr=True` — may read it at any time.
public final class RecordingFile: @unchecked Sendable {
    public let path: String

    // All state below is guarded by the HDF5 lock.
    private var lock: RecordingFileLock?
    /// Open in SWMR-write mode exactly while `slots` is not empty.
    private var file: H5Handle?
    private var slots: [RunSlot] = []
    /// Something was written since the last H5Fflush.
    private var dirty = false
    private var closed = false
    /// While `restructure` runs its body: the error writing the runs' records before it.
    private var parkError: FramelabError?
    /// Set when reopening the file failed: the object cannot be used any more.
    private var brokenReason: String?
    /// Runs a killed writer left `running` that opening the file marked `interrupted`.
    public private(set) var interruptedOnOpen: [String] = []
    /// For those runs: table name → rows at its end that were counted but never written
    /// (all zero), which opening the file cut.
    public private(set) var unwrittenRowsCutOnOpen: [String: [String: Int]] = [:]

    /// Creates the file if missing, opens it read-write if it exists (many runs per file).
    ///
    /// A new file appears complete or not at all (it is built under a temporary name and
    /// linked into place). An existing file left by a killed writer is repaired: its
    /// "open for writing" marks are cleared, its allocation mark is moved to its end, and
    /// runs still marked `running` become `interrupted`. A file that is not HDF5, or not a
    /// Framelab recording, is refused and left untouched.
    ///
    /// Errors are `FramelabError(.io, "cannot write HDF5 file 'PATH': reason")`.
    public init(path: String) throws {
        self.path = path
        let opened = try RecordingFileOpener.open(path)
        lock = opened
        do {
            try HDF5.locked { () throws(HDF5Error) in
                // A writer whose disk filled up may have stored an end-of-file address past
                // the bytes it managed to write: give the file back that length first.
                if fl_h5_extend_to_stored_eof(path) < 0 {
                    throw HDF5Error(what: "cannot restore the file's length", reason: String(cString: strerror(errno)))
                }
                let handle = try H5File.open(path, .repair)
                try H5File.extendAllocationToEndOfFile(handle.id)
                try Self.checkSchema(handle.id)
                (interruptedOnOpen, unwrittenRowsCutOnOpen) = try Self.markRunningRunsInterrupted(handle.id)
                try HDF5.check(handle.close(), "cannot close the file")
            }
        } catch {
            opened.release()
            lock = nil
            throw ioError(error.description)
        }
    }

    deinit { close() }

    // MARK: - Runs

    /// Creates `/runs/<id>` with the given attributes, `status` = "running", `run_index`,
    /// `created_utc`, `stage_names`, the four empty record tables and the empty `tables`,
    /// all in one change of the file's layout, then starts a writer that flushes it every
    /// `RunWriter.flushInterval` seconds.
    ///
    /// `id` must be unique in the file, non-empty, and contain no "/" (nor be "." or "..").
    /// Attribute names `run_index`, `created_utc`, `status`, `stage_names` and
    /// `finished_utc` are reserved; so are the record tables' names.
    public func createRun(id: String, attributes: [String: AttributeValue], stageNames: [String],
                          tables: [TableLayout] = []) throws -> RunWriter {
        try Self.validateRunID(id)
        for name in attributes.keys { try Self.validateAttributeName(name) }
        let all = Schema.recordTables + tables
        let names = all.map(\.name)
        if let repeated = names.first(where: { n in names.filter { $0 == n }.count > 1 }) {
            throw FramelabError(.badInput, "run '\(id)': table '\(repeated)' is given twice")
        }
        let slot = RunSlot(id: id, stageNames: stageNames, tables: all)
        try HDF5.locked { () throws(FramelabError) in
            try restructure { (file) throws(FramelabError) in
                let runs = try hdf5("cannot open the runs group") { () throws(HDF5Error) in
                    try H5Handle.make(.group, "cannot open group '/\(Schema.runsGroup)'") {
                        h5.H5Gopen2(file, Schema.runsGroup, fl_h5p_default())
                    }
                }
                let exists = try hdf5("cannot look up run '\(id)'") { () throws(HDF5Error) in
                    try HDF5.check(h5.H5Lexists(runs.id, id, fl_h5p_default()), "cannot look up the run")
                }
                if exists > 0 {
                    throw FramelabError(.badInput, "run '\(id)' already exists in HDF5 file '\(path)'")
                }
                try hdf5("cannot create run '\(id)'") { () throws(HDF5Error) in
                    let index = try RunLayout.nextRunIndex(runs.id)
                    try RunLayout.create(in: file, runs: runs.id, id: id, runIndex: index, attributes: attributes,
                                         stageNames: stageNames, tables: all)
                }
                slots.append(slot)
            }
        }
        return RunWriter(file: self, slot: slot)
    }

    /// Closes the file. Runs still being written are flushed and marked `interrupted`;
    /// their writers drop later records and report an error on flush and finish.
    public func close() {
        HDF5.locked {
            guard !closed else { return }
            closed = true
            if !slots.isEmpty && brokenReason == nil {
                for slot in slots { slot.stopAccepting() }
                try? restructure { (file) throws(FramelabError) in
                    for slot in slots {
                        try? RunLayout.setStatus(in: file, runID: slot.id, Schema.Status.interrupted)
                    }
                    slots = []
                }
            }
            for slot in slots { slot.detach() }
            slots = []
            file?.close()
            file = nil
            lock?.release()
            lock = nil
        }
    }

    // MARK: - Used by RunWriter

    /// Writes the slot's waiting records and flushes the file; returns a descriptor to
    /// fsync (after the HDF5 lock is released), or -1.
    func flush(_ slot: RunSlot) throws(FramelabError) {
        let fd = try HDF5.locked { () throws(FramelabError) -> Int32 in
            try ensureUsable(for: slot)
            guard let file else { return -1 }
            if try hdf5("cannot write the records of run '\(slot.id)'", { () throws(HDF5Error) in try slot.writePending() }) {
                dirty = true
            }
            guard dirty else { return -1 }
            try hdf5("cannot flush") { () throws(HDF5Error) in
                try HDF5.check(h5.H5Fflush(file.id, H5F_SCOPE_LOCAL), "H5Fflush failed")
            }
            for s in slots { s.markFlushed() }
            dirty = false
            return fl_h5_dup_file_descriptor(file.id)
        }
        // Push the flushed pages to the disk too, without holding up other HDF5 users.
        if fd >= 0 {
            _ = fsync(fd)
            closeFileDescriptor(fd)
        }
    }

    /// Sets (or replaces) `attributes` in one change of the file's layout, in name order.
    func setAttributes(_ slot: RunSlot, _ attributes: [String: AttributeValue]) throws(FramelabError) {
        guard !attributes.isEmpty else { return }
        for name in attributes.keys { try Self.validateAttributeName(name) }
        try HDF5.locked { () throws(FramelabError) in
            try ensureUsable(for: slot)
            try restructure { (file) throws(FramelabError) in
                try hdf5("cannot set the attributes of run '\(slot.id)'") { () throws(HDF5Error) in
                    try RunLayout.withRunGroup(in: file, runID: slot.id) { (group) throws(HDF5Error) in
                        try H5Attributes.write(attributes, on: group)
                    }
                }
            }
        }
    }

    /// Writes the waiting rows, then `attributes`, `status` and `finished_utc` in one change of the layout.
    func finish(_ slot: RunSlot, status: String, attributes: [String: AttributeValue]) throws(FramelabError) {
        for name in attributes.keys { try Self.validateAttributeName(name) }
        try HDF5.locked { () throws(FramelabError) in
            try ensureUsable(for: slot)
            slot.stopAccepting()
            try restructure { (file) throws(FramelabError) in
                // Records that could not be written (a full disk) make the run a failed one.
                let stored = status.hasPrefix(Schema.Status.failed("")) ? status
                    : parkError.map { Schema.Status.failed($0.message) } ?? status
                // After a write error the disk is likely full: the status goes into the run's
                // header, whose space was set aside at creation, and nothing else is added.
                let diskFull = parkError != nil || status.hasPrefix(Schema.Status.failed(""))
                try hdf5("cannot finish run '\(slot.id)'") { () throws(HDF5Error) in
                    if diskFull {
                        try RunLayout.withRunGroup(in: file, runID: slot.id) { (group) throws(HDF5Error) in
                            // Rows past the last successful flush may be missing on disk.
                            for (name, rows) in slot.flushedRows { try GrowableTable.shrink(in: group, name: name, to: rows) }
                            try H5Attributes.writeInHeader(Self.headerSized(stored), named: Schema.RunAttribute.status, on: group)
                        }
                        return
                    }
                    try RunLayout.withRunGroup(in: file, runID: slot.id) { (group) throws(HDF5Error) in
                        try H5Attributes.write(attributes, on: group)
                    }
                    try RunLayout.setStatus(in: file, runID: slot.id, stored)
                    try RunLayout.withRunGroup(in: file, runID: slot.id) { (group) throws(HDF5Error) in
                        try H5Attributes.write(.string(HostInfo.utcNowISO8601()), named: Schema.RunAttribute.finishedUTC,
                                               on: group)
                    }
                }
                slots.removeAll { $0 === slot }
            }
        }
        // The file was just closed by HDF5 (and maybe reopened): make it durable.
        syncFile()
    }

    /// A status short enough for the run header's spare room (1 KB, whole UTF-8 characters).
    static func headerSized(_ status: String) -> String {
        guard status.utf8.count > 1024 else { return status }
        var cut = ""
        for c in status {
            guard cut.utf8.count + c.utf8.count <= 1021 else { break }
            cut.append(c)
        }
        return cut + "…"
    }

    /// Whether `finish` stored the slot's status (even if writing its last records failed).
    func statusWasStored(_ slot: RunSlot) -> Bool {
        HDF5.locked { brokenReason == nil && !closed && !slots.contains { $0 === slot } }
    }

    /// Whether `slot` can still be written (not finished, file not closed).
    func ensureUsable(for slot: RunSlot) throws(FramelabError) {
        if let brokenReason { throw ioError(brokenReason) }
        guard !closed, slots.contains(where: { $0 === slot }) else {
            throw FramelabError(.io, "cannot write run '\(slot.id)' to HDF5 file '\(path)': "
                                + (closed ? "the file was closed" : "the run was finished"))
        }
    }

    // MARK: - Changing the layout

    /// Runs `body` on the file opened in plain read-write mode, then returns to SWMR
    /// appending for the runs still being written. Waiting records are written first.
    /// Lock held.
    func restructure(_ body: (hid_t) throws(FramelabError) -> Void) throws(FramelabError) {
        // 1. Park the writers: their records go to the file, their objects are closed.
        var firstError: FramelabError?
        for slot in slots {
            do throws(HDF5Error) { try slot.writePending() } catch {
                if firstError == nil { firstError = ioError(error.description) }
            }
        }
        var closeFailed = false
        if let swmr = file {
            file = nil
            // Flushed first, so the rows on disk are known before the tables are closed.
            if h5.H5Fflush(swmr.id, H5F_SCOPE_LOCAL) >= 0 { for s in slots { s.markFlushed() } }
            for slot in slots { slot.detach() }
            if swmr.close() < 0 {
                // Its last writes failed (a full disk): it was closed detached, the disk
                // holding its last successful flush and its "open for writing" mark.
                closeFailed = true
                let reason = ioError("cannot write the records of the runs being written: " + HDF5.takeErrorMessage())
                if firstError == nil { firstError = reason }
            }
        }
        dirty = false
        // 2. Change the layout in plain mode; closing writes it all out consistently.
        do throws(HDF5Error) {
            if closeFailed && fl_h5_extend_to_stored_eof(path) < 0 {
                throw HDF5Error(what: "cannot restore the file's length", reason: String(cString: strerror(errno)))
            }
            let plain = try H5File.open(path, closeFailed ? .repair : .readWrite)
            parkError = firstError
            defer { parkError = nil }
            var bodyError: FramelabError?
            do throws(FramelabError) { try body(plain.id) } catch { bodyError = error }
            try HDF5.check(plain.close(), "cannot close the file")
            if let bodyError { firstError = bodyError }
        } catch {
            throw breakFile(error.description)
        }
        // 3. Back to SWMR appending if anything is still being written.
        if !slots.isEmpty {
            do throws(HDF5Error) {
                let swmr = try H5File.open(path, .swmrWrite)
                file = swmr
                for slot in slots { try slot.attach(to: swmr.id) }
            } catch {
                throw breakFile(error.description)
            }
        }
        if let firstError { throw firstError }
    }

    /// Records that the file can no longer be used, closes what is open, and returns
    /// the error to throw. Lock held.
    private func breakFile(_ reason: String) -> FramelabError {
        brokenReason = "the file became unusable after an error (\(reason))"
        for slot in slots {
            slot.stopAccepting()
            slot.detach()
        }
        file?.close()
        file = nil
        return ioError(brokenReason!)
    }

    private func syncFile() {
        let fd = openFileDescriptor(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            closeFileDescriptor(fd)
        }
    }

    // MARK: - Checks

    private static func validateRunID(_ id: String) throws(FramelabError) {
        if id.isEmpty || id == "." || id == ".." || id.contains("/") || id.utf8.contains(0) {
            throw FramelabError(.badInput, "run id '\(id)' is not usable as an HDF5 group name "
                                + "(it must be non-empty, contain no '/', and not be '.' or '..')")
        }
    }

    private static func validateAttributeName(_ name: String) throws(FramelabError) {
        if name.isEmpty || name.utf8.contains(0) {
            throw FramelabError(.badInput, "attribute name '\(name)' is empty or contains a NUL character")
        }
        if Schema.RunAttribute.reserved.contains(name) {
            throw FramelabError(.badInput, "attribute '\(name)' is reserved for the recording layer "
                                + "(reserved: \(Schema.RunAttribute.reserved.sorted().joined(separator: ", ")))")
        }
    }

    private static func checkSchema(_ file: hid_t) throws(HDF5Error) {
        let what = "not a Framelab recording"
        guard let value = try H5Attributes.read(named: Schema.versionAttribute, on: file) else {
            throw HDF5Error(what: what, reason: "it has no '\(Schema.versionAttribute)' attribute; it is left untouched")
        }
        guard value == .int(Schema.version) else {
            let hint = value == .int(1) ? " (a version-1 file is read but not written to: record into a new file)" : ""
            throw HDF5Error(what: "unsupported recording layout",
                            reason: "\(Schema.versionAttribute) is \(value), this Framelab writes \(Schema.version)" + hint)
        }
        guard try HDF5.check(h5.H5Lexists(file, Schema.runsGroup, fl_h5p_default()), "cannot look for /runs") > 0 else {
            throw HDF5Error(what: what, reason: "it has no '/\(Schema.runsGroup)' group")
        }
    }

    /// Runs left `running` by a writer that is gone (we hold the writer's lock) become
    /// `interrupted`. A run too damaged to read is left as it is.
    private static func markRunningRunsInterrupted(_ file: hid_t) throws(HDF5Error)
        -> (marked: [String], unwrittenRows: [String: [String: Int]]) {
        var marked: [String] = []
        var unwrittenRows: [String: [String: Int]] = [:]
        for id in try RunLayout.runNames(in: file) {
            let status = try? RunLayout.withRunGroup(in: file, runID: id) { (group) throws(HDF5Error) in
                try H5Attributes.read(named: Schema.RunAttribute.status, on: group)
            }
            if status == .string(Schema.Status.running) {
                if (try? RunLayout.setStatus(in: file, runID: id, Schema.Status.interrupted)) != nil { marked.append(id) }
                let cut = try cutUnwrittenTails(in: file, runID: id)
                if !cut.isEmpty { unwrittenRows[id] = cut }
            }
        }
        return (marked, unwrittenRows)
    }

    /// Cuts the rows a killed writer counted but never wrote from the end of the run's
    /// tables (see `GrowableTable.neverAllZero`): table name → rows cut.
    private static func cutUnwrittenTails(in file: hid_t, runID: String) throws(HDF5Error) -> [String: Int] {
        try RunLayout.withRunGroup(in: file, runID: runID) { (group) throws(HDF5Error) -> [String: Int] in
            var cut: [String: Int] = [:]
            for name in GrowableTable.neverAllZero.sorted() where try GrowableTable.exists(in: group, name: name) {
                let rows = try GrowableTable.cutUnwrittenTail(in: group, name: name)
                if rows > 0 { cut[name] = rows }
            }
            return cut
        }
    }

    // MARK: - Errors

    private func ioError(_ reason: String) -> FramelabError {
        FramelabError(.io, "cannot write HDF5 file '\(path)': \(reason)")
    }

    /// Runs an HDF5 step, turning its error into this file's `FramelabError`.
    @discardableResult
    func hdf5<R>(_ what: String, _ body: () throws(HDF5Error) -> R) throws(FramelabError) -> R {
        do { return try body() } catch { throw ioError("\(what): \(error.description)") }
    }
}
