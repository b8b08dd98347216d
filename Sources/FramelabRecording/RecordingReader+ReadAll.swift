import FramelabCore

extension RecordingReader {
    /// Reads everything the commands that read recordings reach: the schema version, the
    /// run list, every run (attributes and record tables) and version-1 detection tables.
    /// `RecordingVetting` (in the CLI) runs it in a child process before a command reads a
    /// file a user handed in, because libhdf5 itself crashes or loops on some damaged files
    /// (docs/reliability.md, "Damaged HDF5 files").
    public static func readEverything(path: String) throws {
        _ = try schemaVersion(path: path)
        for id in try runIDs(path: path) {
            _ = try readRun(path: path, id: id)
            for table in ["detections", "ground_truth", "frame_matches", "detector_metrics"] {
                _ = try readSchema1Table(path: path, runID: id, name: table)
            }
        }
    }
}
