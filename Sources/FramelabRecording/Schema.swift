/// Names and numbers of the on-disk layout (documented in docs/hdf5-schema.md).
enum Schema {
    /// Root attribute naming the layout version; bump it on incompatible changes.
    static let versionAttribute = "framelab_schema_version"
    /// The version this Framelab writes.
    static let version: Int64 = 2
    /// The versions it reads (version 1: see "Version 1 files" in the schema).
    static let readableVersions: Set<Int64> = [1, 2]

    /// The group holding one group per run.
    static let runsGroup = "runs"
    /// Runs whose links fit in `/runs`' first object-header block (more are fine, but are
    /// added with a less crash-proof header extension).
    static let runsPlanned = 256
    /// A run group keeps up to this many attributes in its object header.
    static let compactAttributes = 1000
    /// Size of a run group's first object-header block: room for its attributes, the ones
    /// set at creation and those set later (status, finished_utc, mid-run settings).
    static let runHeaderBytes = 8192

    /// Bytes of the fixed-size UTF-8 string members of records. Rows hold their text
    /// in the row itself rather than as variable-length strings, whose characters HDF5
    /// keeps in a separate "global heap" that SWMR does not write in step with the rows:
    /// a crash could leave rows pointing at text that never reached the file. Longer text
    /// is cut at a character boundary and ends with "…".
    static let reasonBytes = 1024
    static let kindBytes = 64
    static let detailBytes = 1024

    /// Attributes the recording layer owns on every run group; callers cannot set them.
    enum RunAttribute {
        /// Creation counter within the file (0, 1, 2, ...): the order of `runIDs`.
        static let runIndex = "run_index"
        static let createdUTC = "created_utc"
        static let status = "status"
        static let stageNames = "stage_names"
        static let finishedUTC = "finished_utc"

        static let reserved: Set<String> = [runIndex, createdUTC, status, stageNames, finishedUTC]
    }

    enum Status {
        /// Set at creation; still there if the writer died and the file was not reopened since.
        static let running = "running"
        /// The writer stopped without `finish`: found `running` when the file was next opened
        /// for recording, or the file was closed (or the writer released) before `finish`.
        static let interrupted = "interrupted"
        /// Ended by an error, named after the colon (e.g. the first write error).
        static func failed(_ reason: String) -> String { "failed: \(reason)" }
    }
}
