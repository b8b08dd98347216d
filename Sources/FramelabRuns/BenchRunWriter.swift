import FramelabCore
import FramelabFilters
import FramelabRecording

/// Records a `bench filters` report as a run in an HDF5 file, in the run layout every
/// reader already knows: each measured case (filter, path, size, threads) is a "stage",
/// each timed repetition a row of `stage_timings`; the summary goes into run attributes.
/// See docs/hdf5-schema.md, "Benchmark runs".
public final class BenchRunWriter {
    public let runID: String
    private let file: RecordingFile
    private let attributes: [String: AttributeValue]
    private var writer: RunWriter?

    /// Opens (or creates) the file before any timing starts, so a bad path fails fast.
    /// `context`: the `RunContext` attributes.
    public init(path: String, context: [String: AttributeValue]) throws {
        file = try RecordingFile(path: path)
        runID = "bench-" + RunIdentifier.make()
        attributes = context.merging(["kind": .string("bench filters")]) { $1 }
    }

    /// Writes one stage per case, with its timed repetitions, and the summary attributes.
    public func record(_ report: BenchReport) throws {
        let names = report.results.map { "\($0.filter)|\($0.path)|\($0.size)|\($0.threads)" }
        var attributes = self.attributes
        attributes["memcpy_ms"] = .strings(report.memcpy.keys.sorted().map { "\($0)=\(report.memcpy[$0]!.minMs)" })
        attributes["bench_json"] = .string(report.json())
        attributes["skipped"] = .strings(report.skipped)
        attributes["goals"] = .strings(report.goalChecks().map { "\($0.met ? "met" : "not met"): \($0.goal): \($0.measured)" })
        let writer = try file.createRun(id: runID, attributes: attributes, stageNames: names)
        self.writer = writer
        for (stage, result) in report.results.enumerated() {
            var start: Int64 = 0
            for (i, ms) in result.timing.samplesMs.enumerated() {
                let ns = Int64((ms * 1e6).rounded())
                writer.append(StageTimingRecord(frame: Int64(i), stage: Int32(stage), startNs: start, durationNs: ns))
                start += ns
            }
        }
    }

    public func finish(status: String) throws {
        try writer?.finish(status: status)
    }
}
