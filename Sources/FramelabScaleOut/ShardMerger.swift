import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabRecording
import FramelabRuns

/// Shard runs merged back into one evaluation, in dataset order, ready to be recorded and
/// summarised exactly as a single-process `framelab eval` is: every metric is recomputed
/// from these per-frame results (never averaged across shards).
public struct MergedEvaluation: Sendable {
    public let shardCount: Int
    /// The merged shards, by index.
    public let shards: [ShardRun]
    /// Shard indices with no completed run (only with `allowPartial`).
    public let missing: [Int]
    public let labels: [String]
    /// The dataset-wide index of each merged image, ascending.
    public let frameIndices: [Int]
    /// Each merged image: its path (as the shard recorded it) and its annotated faces.
    public let images: [AnnotatedImage]
    /// Per detector, per merged image.
    public let frames: [[FrameResult]]
    /// The slowest shard's wall time: the merged evaluation's wall time when shards ran at once.
    public let wallSeconds: Double
    /// Every image of the whole dataset (absolute paths, by dataset-wide index), as the shards recorded them.
    public let datasetPaths: [String]
    /// The protocols any shard was scored with (`eval --protocol`): the merge rescores with
    /// them over every merged image (WIDER normalises scores over the whole set).
    public let protocols: [EvaluationProtocol]

    public var summaries: [DetectorSummary] {
        labels.indices.map { DetectorSummary(name: labels[$0], frames: frames[$0]) }
    }
}

/// Checks that shard runs belong together and merges them (docs/scale-out.md, "What merge checks").
public enum ShardMerger {
    /// `loaded`: what each shard file held, in the order given. Errors are one line naming
    /// the file or the shard.
    public static func merge(_ loaded: [ShardRun.Loaded], allowPartial: Bool) throws -> MergedEvaluation {
        let runs = loaded.compactMap { if case .completed(let r) = $0 { r } else { nil } }
        let incomplete = loaded.compactMap { l -> (path: String, shard: Shard?, status: String)? in
            if case .incomplete(let p, let s, let st) = l { (p, s, st) } else { nil }
        }
        guard let first = runs.first else {
            let why = incomplete.map { "'\($0.path)' (\($0.shard.map { "shard \($0)" } ?? "shard ?"): \($0.status))" }
            throw FramelabError(.badInput, "no completed shard run to merge" + (why.isEmpty ? "" : ": " + why.joined(separator: ", ")))
        }
        let count = first.shard.count
        for r in runs.dropFirst() {
            if r.shard.count != count {
                throw FramelabError(.badInput, "'\(r.path)' is shard \(r.shard) but '\(first.path)' is shard \(first.shard): "
                                    + "the shard counts differ (\(r.shard.count) vs \(count))")
            }
            if r.fingerprint != first.fingerprint || r.datasetImages != first.datasetImages {
                throw FramelabError(.badInput, "'\(r.path)' (shard \(r.shard)) evaluated a different dataset than '\(first.path)': "
                                    + "fingerprint \(r.fingerprint.prefix(12))… vs \(first.fingerprint.prefix(12))…")
            }
            if r.detectorConfigs != first.detectorConfigs || r.labels != first.labels {
                throw FramelabError(.badInput, "'\(r.path)' (shard \(r.shard)) ran other detectors than '\(first.path)': "
                                    + "[\(r.detectorConfigs.joined(separator: "; "))] vs [\(first.detectorConfigs.joined(separator: "; "))]")
            }
        }
        var byIndex: [Int: ShardRun] = [:]
        for r in runs {
            if let other = byIndex[r.shard.index] {
                throw FramelabError(.badInput, "shard \(r.shard) is given twice: '\(other.path)' and '\(r.path)'")
            }
            byIndex[r.shard.index] = r
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        if !missing.isEmpty && !allowPartial {
            let names = missing.map { k -> String in
                let why = incomplete.first { $0.shard?.index == k && $0.shard?.count == count }
                    .map { " ('\($0.path)' did not complete: \($0.status))" } ?? ""
                return "\(k)/\(count)\(why)"
            }
            throw FramelabError(.badInput, "missing shard\(missing.count == 1 ? "" : "s") \(names.joined(separator: ", ")) "
                                + "of \(count); resubmit \(missing.count == 1 ? "it" : "them") or pass --allow-partial")
        }

        let shards = byIndex.keys.sorted().map { byIndex[$0]! }
        var merged: [(index: Int, image: AnnotatedImage, frames: [FrameResult])] = []
        var owner: [Int: String] = [:]
        for run in shards {
            for item in try ShardFrames.rebuild(run) {
                if let other = owner[item.index] {
                    throw FramelabError(.badInput, "image \(item.index) is in two shards: '\(other)' and '\(run.path)'")
                }
                guard item.index >= 0 && item.index < first.datasetImages else {
                    throw FramelabError(.corrupt, "'\(run.path)': frame \(item.index) is outside the dataset's \(first.datasetImages) images")
                }
                owner[item.index] = run.path
                merged.append(item)
            }
        }
        merged.sort { $0.index < $1.index }
        let wall = shards.map { run -> Double in
            switch (run.run.attributes["wall_ns"], run.run.attributes["wall_seconds"]) {
            case (.int(let ns)?, _): return Double(ns) / 1e9
            case (_, .double(let s)?): return s  // a version-1 shard
            default: return 0
            }
        }.max() ?? 0
        let paths = first.imagePaths
        let datasetPaths = (0..<first.datasetImages).map { paths[$0] ?? "" }
        return MergedEvaluation(
            shardCount: count, shards: shards, missing: missing, labels: first.labels,
            frameIndices: merged.map(\.index), images: merged.map(\.image),
            frames: first.labels.indices.map { k in merged.map { $0.frames[k] } }, wallSeconds: wall,
            datasetPaths: datasetPaths,
            protocols: Set(shards.flatMap { EvalRunWriter.protocols(of: $0.run) }).sorted())
    }
}
