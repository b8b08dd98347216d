#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHDF5
import FramelabCore

/// Everything recorded for one run.
public struct RunData: Sendable {
    public var id: String
    /// Every attribute of the run group, the recording layer's own included
    /// (`status`, `run_index`, `created_utc`, `finished_utc`, `stage_names`).
    public var attributes: [String: AttributeValue]
    public var stageNames: [String]
    public var frames: [FrameRecord]
    public var timings: [StageTimingRecord]
    public var failures: [FailureRecord]
    public var events: [EventRecord]
    /// The file's `framelab_schema_version` (1 or 2).
    public var schemaVersion: Int

    public init(id: String, attributes: [String: AttributeValue], stageNames: [String], frames: [FrameRecord],
                timings: [StageTimingRecord], failures: [FailureRecord], events: [EventRecord], schemaVersion: Int = 2) {
        self.schemaVersion = schemaVersion
        self.id = id
        self.attributes = attributes
        self.stageNames = stageNames
        self.frames = frames
        self.timings = timings
        self.failures = failures
        self.events = events
    }

    /// The run's `status` attribute ("running", "interrupted", or what `finish` set).
    public var status: String? {
        if case .string(let s)? = attributes[Schema.RunAttribute.status] { return s }
        return nil
    }
}

/// Reads recording files, never writing to them.
///
/// Files are opened in SWMR-read mode and tolerate what a killed writer leaves, so a
/// recording can be read while it is written (by this or another process) and after its
/// writer died, without being repaired first.
public enum RecordingReader {
    /// The ids of the runs in the file, in creation order (by `run_index`).
    public static func runIDs(path: String) throws -> [String] {
        try withFile(path) { (file) throws(HDF5Error) -> [String] in
            var entries: [(index: Int64, id: String)] = []
            for id in try RunLayout.runNames(in: file) {
                // A run a crash left unreadable is still listed (last); reading it says why.
                let index = (try? RunLayout.withRunGroup(in: file, runID: id) { (group) throws(HDF5Error) -> Int64 in
                    if case .int(let i)? = try H5Attributes.read(named: Schema.RunAttribute.runIndex, on: group) { return i }
                    return Int64.max
                }) ?? Int64.max
                entries.append((index, id))
            }
            return entries.sorted { ($0.index, $0.id) < ($1.index, $1.id) }.map(\.id)
        }
    }

    /// Everything recorded for run `id`. Errors name the path; a missing run is `.badInput`.
    public static func readRun(path: String, id: String) throws -> RunData {
        try withRunGroup(path: path, runID: id) { (file, group) throws(HDF5Error) -> RunData in
            let attributes = try H5Attributes.readAll(on: group)
            var stageNames: [String] = []
            if case .strings(let s)? = attributes[Schema.RunAttribute.stageNames] { stageNames = s }
            return RunData(id: id, attributes: attributes, stageNames: stageNames,
                           frames: try read(FrameRecord.self, in: group),
                           timings: try read(StageTimingRecord.self, in: group),
                           failures: try read(FailureRecord.self, in: group),
                           events: try read(EventRecord.self, in: group), schemaVersion: try version(of: file))
        }
    }

    private static func read<R: TableRow>(_ type: R.Type, in group: hid_t) throws(HDF5Error) -> [R] {
        let table = try GrowableTable.open(in: group, name: R.layout.name)
        defer { table.close() }
        return try table.readAll(R.self)
    }

    /// The file's `framelab_schema_version`.
    public static func schemaVersion(path: String) throws -> Int {
        try withFile(path) { (file) throws(HDF5Error) -> Int in try version(of: file) }
    }

    private static func version(of file: hid_t) throws(HDF5Error) -> Int {
        guard case .int(let v)? = try H5Attributes.read(named: Schema.versionAttribute, on: file) else { return 0 }
        return Int(v)
    }

    /// Every row of the run's table `R.layout.name`, or nil when the run has no such table.
    /// Errors name the path; a missing run is `.badInput`.
    public static func readRows<R: TableRow>(_ type: R.Type, path: String, runID: String) throws -> [R]? {
        try withRunGroup(path: path, runID: runID) { (_, group) throws(HDF5Error) -> [R]? in
            guard try GrowableTable.exists(in: group, name: R.layout.name) else { return nil }
            return try read(R.self, in: group)
        }
    }

    /// Runs `body` with the file and the run's group open, the file opened once; a missing
    /// run is `.badInput` naming the runs the file has.
    static func withRunGroup<T>(path: String, runID: String,
                                _ body: (_ file: hid_t, _ group: hid_t) throws(HDF5Error) -> T) throws -> T {
        let (result, available) = try withFile(path) { (file) throws(HDF5Error) -> (T?, [String]) in
            let names = try RunLayout.runNames(in: file)
            guard names.contains(runID) else { return (nil, names) }
            return (try RunLayout.withRunGroup(in: file, runID: runID) { (group) throws(HDF5Error) in try body(file, group) },
                    names)
        }
        guard let result else {
            let list = available.isEmpty ? "it has no runs" : "its runs are " + available.joined(separator: ", ")
            throw FramelabError(.badInput, "no run '\(runID)' in HDF5 file '\(path)' (\(list))")
        }
        return result
    }

    /// Opens `path` read-only, runs `body`, closes it; errors become `FramelabError`s.
    static func withFile<R>(_ path: String, _ body: (hid_t) throws(HDF5Error) -> R) throws(FramelabError) -> R {
        func failure(_ reason: String) -> FramelabError {
            FramelabError(.io, "cannot read HDF5 file '\(path)': \(reason)")
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(errnoDescription()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory") }
        guard access(path, R_OK) == 0 else { throw failure(errnoDescription()) }
        return try HDF5.locked { () throws(FramelabError) -> R in
            switch isHDF5File(path) {
            case .yes: break
            case .no: throw failure("it is not an HDF5 file")
            case .error(let message): throw failure(message)
            }
            let file: H5Handle
            do throws(HDF5Error) {
                // SWMR-read mode copes with a file being written; plain read-only is the
                // fallback for files in an older format.
                do { file = try H5File.open(path, .swmrRead) } catch { file = try H5File.open(path, .read) }
                // Alone with the file (not sharing it with a writer in this process): let
                // HDF5 see all of it, even past the allocation mark a killed writer left.
                if H5File.openFileIDCount(file.id) == 1 { try H5File.extendAllocationToEndOfFile(file.id) }
            } catch {
                throw failure(error.description)
            }
            do throws(HDF5Error) {
                guard case .int(let version)? = try H5Attributes.read(named: Schema.versionAttribute, on: file.id) else {
                    throw HDF5Error(what: "not a Framelab recording", reason: "it has no '\(Schema.versionAttribute)' attribute")
                }
                guard Schema.readableVersions.contains(version) else {
                    let known = Schema.readableVersions.sorted().map(String.init).joined(separator: " and ")
                    throw HDF5Error(what: "unsupported recording layout",
                                    reason: "\(Schema.versionAttribute) is \(version), this Framelab reads \(known)")
                }
                return try body(file.id)
            } catch {
                throw failure(error.description)
            }
        }
    }
}
