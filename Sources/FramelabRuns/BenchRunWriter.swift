import FramelabCore
import FramelabFilters
import FramelabRecording

/// One timed repetition of a `bench filters` case: a row of `bench_results`
/// (docs/hdf5-schema.md, "Benchmark runs").
public struct BenchResultRow: TableRow, Equatable {
    public var filter: String
    public var path: String
    public var width: Int32, height: Int32, threads: Int32
    public var isa: String
    public var repetition: Int32
    public var durationNs: Int64

    public static let layout = TableLayout(name: "bench_results", columns: [
        TableColumn("filter", .text(bytes: 64)), TableColumn("path", .text(bytes: 16)), TableColumn("width", .int32),
        TableColumn("height", .int32), TableColumn("threads", .int32), TableColumn("isa", .text(bytes: 16)),
        TableColumn("repetition", .int32), TableColumn("duration_ns", .int64),
    ], chunkRows: 1024)

    public init(filter: String, path: String, width: Int32, height: Int32, threads: Int32, isa: String, repetition: Int32,
                durationNs: Int64) {
        self.filter = filter; self.path = path; self.width = width; self.height = height; self.threads = threads
        self.isa = isa; self.repetition = repetition; self.durationNs = durationNs
    }

    public func encode(to e: inout RowEncoder) {
        e.text(filter, bytes: 64); e.text(path, bytes: 16)
        e.int32(width); e.int32(height); e.int32(threads)
        e.text(isa, bytes: 16); e.int32(repetition); e.int64(durationNs)
    }

    public init(from d: inout RowDecoder) {
        self.init(filter: d.text(bytes: 64), path: d.text(bytes: 16), width: d.int32(), height: d.int32(),
                  threads: d.int32(), isa: d.text(bytes: 16), repetition: d.int32(), durationNs: d.int64())
    }
}

/// Records a `bench filters` report as a run of `kind` "bench filters": every timed
/// repetition of every case (and of the memcpy it is compared with) a row of
/// `bench_results`; the summary in attributes.
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

    /// Creates the run with its rows and summary attributes.
    public func record(_ report: BenchReport) throws {
        var attributes = self.attributes
        attributes["bench_json"] = .string(try FramelabJSON.encode(report.document, pretty: false))
        attributes["skipped"] = .strings(report.skipped)
        attributes["pixel_format"] = .string(report.format)
        attributes["goals"] = .strings(report.goalChecks().map { "\($0.met ? "met" : "not met"): \($0.goal): \($0.measured)" })
        let writer = try file.createRun(id: runID, attributes: attributes, stageNames: [], tables: [BenchResultRow.layout])
        self.writer = writer
        let isa = KernelLevel.compiled
        func rows(filter: String, path: String, width: Int, height: Int, threads: Int, _ samplesMs: [Double]) -> [BenchResultRow] {
            samplesMs.enumerated().map { i, ms in
                BenchResultRow(filter: filter, path: path, width: Int32(clamping: width), height: Int32(clamping: height),
                               threads: Int32(clamping: threads), isa: isa, repetition: Int32(clamping: i),
                               durationNs: Int64((ms * 1e6).rounded()))
            }
        }
        for size in report.memcpy.keys.sorted() {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, let timing = report.memcpy[size] else { continue }
            writer.append(rows(filter: "memcpy", path: "memcpy", width: parts[0], height: parts[1], threads: 1, timing.samplesMs))
        }
        for r in report.results {
            writer.append(rows(filter: r.filter, path: r.path, width: r.width, height: r.height, threads: r.threads,
                               r.timing.samplesMs))
        }
    }

    public func finish(status: String) throws {
        try writer?.finish(status: status)
    }
}
