import FramelabCore
import FramelabRuns

/// `framelab run --json`: the run's summary with the same keys `report --json` gives a
/// pipeline run (id, source, policy, status, frames, processed, dropped, failed, fps,
/// stages with percentiles and budget shares, end_to_end, fits_fps, …), plus what only
/// the command knows: the file it recorded into, the first failure reasons, faces found
/// per detector stage, and why and with which code it exits.
struct RunResultJSON: Encodable {
    let summary: RunSummary
    /// The HDF5 file the run was recorded into; nil without --out or when writing failed.
    let file: String?
    let failure_reasons: [String]
    /// Faces found per detector stage, by stage name.
    let faces_found: [String: Int]
    /// "completed", "interrupted" (a signal; the record kept), "every frame failed" or "failed".
    let exit_reason: String
    let exit_code: Int32

    private enum Key: String, CodingKey { case file, failure_reasons, faces_found, exit_reason, exit_code }

    // The summary's keys and these side by side in one object, so a script reads
    // `run --json` and a `report --json` run the same way. `file` is null, not absent.
    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(file, forKey: .file)
        try c.encode(failure_reasons, forKey: .failure_reasons)
        try c.encode(faces_found, forKey: .faces_found)
        try c.encode(exit_reason, forKey: .exit_reason)
        try c.encode(exit_code, forKey: .exit_code)
    }
}
