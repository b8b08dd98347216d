import FramelabCore
@testable import FramelabRecording

/// An HDF5 recording file read the way `report`, `merge`, `compare` and `export` read runs
/// (RecordingReader): the schema version, the run list, then every run on its own (its
/// attributes and its frames, timings, failures and events tables) and the tables of a
/// version-1 file, so one damaged run does not hide what the others reach. HDF5 itself is
/// not instrumented; its error printing is off (fl_h5_init), as in Framelab.
///
/// Besides the harness's rule for errors: every HDF5 identifier a read opened is closed
/// after it, failed or not (a file left open would be the one the next read finds).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "runs.h5")
    var ids: [String] = []
    FuzzInput.check(naming: path) {
        _ = try RecordingReader.schemaVersion(path: path)
        ids = try RecordingReader.runIDs(path: path)
    }
    for id in ids {
        FuzzInput.check(naming: path) { _ = try RecordingReader.readRun(path: path, id: id) }
        for table in ["detections", "ground_truth", "frame_matches", "detector_metrics"] {
            FuzzInput.check(naming: path) { _ = try RecordingReader.readSchema1Table(path: path, runID: id, name: table) }
        }
    }
    let open = HDF5.openObjectCount()
    if open != 0 { fatalError("\(open) HDF5 identifiers left open after reading '\(path)'") }
    return 0
}
