import ArgumentParser
import FramelabCore
import FramelabDatasets
import FramelabEvaluation
import FramelabRecording
import FramelabRuns
import FramelabScaleOut
import Foundation

/// `framelab merge`: shard runs of one evaluation into one run that equals a single-process eval.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shard files of a sharded `framelab eval` into one eval run, recomputing every metric.",
        discussion: """
            Each SHARD.h5 holds a run of `framelab eval --shard K/N --out SHARD.h5` (the newest completed \
            shard run of the file counts). Merge checks that they belong together: the same dataset \
            fingerprint, the same detector configurations (resolved parameters), the same N, and every \
            shard 0..N-1 present exactly once. A missing or duplicate shard is an error naming it; \
            --allow-partial merges what is there and records the missing shards (attribute \
            missing_shards and an event). \
            Per-frame records (detections, matching, ground truth, timings, failures) are put back in \
            dataset order, and AP, precision, recall, F1, the PR curve and FDDB ROC are recomputed over \
            all detections — never averaged across shards — as are the scores of the protocols the \
            shards were evaluated with (eval --protocol; WIDER normalises scores over the whole set), \
            so the result equals a single-process run \
            (timings aside). The merged run is appended to OUT.h5; `framelab report` and the notebooks \
            read it like any eval run. See docs/scale-out.md.
            """)

    @Argument(help: "The HDF5 file to append the merged run to.", completion: ShellCompletion.recordings)
    var out: String

    @Argument(help: "Shard files (SHARD.h5 …), in any order.", completion: ShellCompletion.recordings)
    var shards: [String] = []

    @Flag(name: .customLong("allow-partial"), help: "Merge even when shards are missing; record which.")
    var allowPartial = false

    @Option(name: .customLong("run-id"), help: "Name of the merged run (default: UTC time and a random suffix).")
    var runID: String?

    @Flag(name: .long, help: "Print one JSON object instead of the table.")
    var json = false

    func validate() throws {
        if shards.isEmpty { throw usageError("merge needs at least one shard file after OUT.h5") }
        if let runID, runID.isEmpty || runID.contains("/") {
            throw usageError("--run-id must be non-empty and contain no '/', got '\(runID)'")
        }
        if shards.contains(out) { throw usageError("OUT.h5 '\(out)' is also given as a shard file") }
    }

    func run() throws {
        // Nothing is recorded before the end: a signal ends it at once, exit 128 + the signal;
        // a merged run being written is marked interrupted first.
        let recording = RunBeingWritten()
        let interrupt = InterruptHandler.exitingAtOnce(abandon: { recording.abandon() })
        defer { interrupt.cancel() }
        let merged: MergedEvaluation
        do {
            let loaded = try shards.map { path -> ShardRun.Loaded in
                guard FileManager.default.fileExists(atPath: path) else {
                    throw FramelabError(.badInput, "shard file '\(path)' does not exist")
                }
                try RecordingVetting.vet(path)
                return try ShardRun.load(path: path)
            }
            merged = try ShardMerger.merge(loaded, allowPartial: allowPartial)
        } catch {
            throw failure(error)
        }
        if !merged.missing.isEmpty {
            printToStandardError("framelab: warning: merging without shard\(merged.missing.count == 1 ? "" : "s") "
                                 + merged.missing.map { "\($0)/\(merged.shardCount)" }.joined(separator: ", "))
        }
        let summaries = merged.summaries
        let id = runID ?? RunIdentifier.make()
        let protocolScores: [[ProtocolScores]]
        do {
            protocolScores = try EvalProtocols(merged.protocols).score(images: merged.images, frames: merged.frames)
        } catch {
            throw failure(error)
        }
        do {
            try RecordingVetting.vet(out)
            let recorder = try EvalRunWriter(path: out, runID: id, attributes: Self.attributes(merged), labels: merged.labels,
                                             dataset: Self.dataset(merged), images: merged.datasetPaths,
                                             frameIndices: merged.frameIndices, elements: try Self.elements(merged))
            recording.set(recorder.writer)
            let detail = "merged shards \(merged.shards.map { "\($0.shard)" }.joined(separator: ", ")) from "
                + merged.shards.map(\.path).joined(separator: ", ")
                + (merged.missing.isEmpty ? "" : "; missing shards " + merged.missing.map { "\($0)/\(merged.shardCount)" }.joined(separator: ", "))
            recorder.note(kind: merged.missing.isEmpty ? "merge" : "merge-partial", detail: detail,
                          frame: merged.frameIndices.last ?? 0)
            recorder.record(frames: merged.frames, summaries: summaries, protocolScores: protocolScores)
            try recorder.finish(status: "completed", wallSeconds: merged.wallSeconds)
        } catch {
            throw failure(error)
        }
        let name = Self.datasetName(merged)
        let faces = merged.images.reduce(0) { $0 + $1.faces.filter { !$0.ignore }.count }
        let threads = Self.threads(merged)
        if json {
            try printJSON(EvalReport.document(summaries, dataset: name, images: merged.images.count, faces: faces, workers: threads,
                                              wallSeconds: merged.wallSeconds, out: out, runID: id, protocolScores: protocolScores))
        } else {
            print(EvalReport.table(summaries, dataset: name, images: merged.images.count, faces: faces, workers: threads,
                                   wallSeconds: merged.wallSeconds))
            let protocolTable = EvalProtocols.table(protocolScores, labels: summaries.map(\.name))
            if !protocolTable.isEmpty { print(protocolTable) }
            print("merged \(merged.shards.count) of \(merged.shardCount) shards into run '\(id)' in \(out)")
        }
    }

    /// The shards' description of the evaluation, plus what the merge adds.
    static func attributes(_ m: MergedEvaluation) -> [String: AttributeValue] {
        let first = m.shards[0].run.attributes
        var a = commandContext
        for key in ["kind", "source", "dataset", "detectors", "workers", "match_iou",
                    ShardAttributes.fingerprint, ShardAttributes.detectorConfigs, ShardAttributes.datasetImages] {
            if let v = first[key] { a[key] = v }
        }
        a[EvalRunWriter.protocolsAttribute] = .strings(m.protocols.map(\.rawValue))
        a[ShardAttributes.shardCount] = .int(Int64(m.shardCount))
        a[ShardAttributes.assignment] = first[ShardAttributes.assignment]
        a[ShardAttributes.mergedShards] = .strings(m.shards.map { "\($0.shard)" })
        a[ShardAttributes.mergedFiles] = .strings(m.shards.map { "\($0.path)#\($0.run.id)" })
        if !m.missing.isEmpty { a[ShardAttributes.missingShards] = .strings(m.missing.map { "\($0)/\(m.shardCount)" }) }
        return a
    }

    static func dataset(_ m: MergedEvaluation) -> FaceDataset {
        let name = datasetName(m)
        let format = name.split(separator: ":", maxSplits: 1).first.flatMap { DatasetFormat(rawValue: String($0)) } ?? .csv
        return FaceDataset(format: format, path: name, images: m.images)
    }

    static func datasetName(_ m: MergedEvaluation) -> String {
        if case .string(let s)? = m.shards[0].run.attributes["dataset"] { return s }
        return "?"
    }

    static func threads(_ m: MergedEvaluation) -> Int {
        let a = m.shards[0].run.attributes
        if case .int(let t)? = a["workers"] ?? a["threads"] { return Int(t) }  // "threads" in version-1 shards
        return 1
    }

    /// The shards' `elements` rows (each shard ran the same detectors: the merge checked their configurations).
    static func elements(_ m: MergedEvaluation) throws -> [ElementRow] {
        let first = m.shards[0]
        return try RecordingReader.readRows(ElementRow.self, path: first.path, runID: first.run.id) ?? []
    }
}

/// The run `merge` is writing, for a signal to mark `interrupted` before the process exits.
private final class RunBeingWritten: @unchecked Sendable {
    private let lock = Lock()
    private var writer: RunWriter?

    func set(_ writer: RunWriter) { lock.withLock { self.writer = writer } }
    func abandon() { lock.withLock { writer }?.abandon() }
}
