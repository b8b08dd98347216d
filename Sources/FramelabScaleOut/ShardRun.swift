import FramelabCore
import FramelabRecording
import FramelabRuns

/// One shard's evaluation as `framelab eval --shard K/N --out FILE` recorded it: its run
/// attributes, records and detection tables.
public struct ShardRun: Sendable {
    public let path: String
    public let run: RunData
    public let shard: Shard
    public let fingerprint: String
    public let detectorConfigs: [String]
    public let datasetImages: Int
    /// Its per-frame detection tables.
    public let tables: DetectionTables.Recorded

    public var labels: [String] { run.stageNames }

    /// What a shard file holds: its newest completed shard run, or the shard whose run did
    /// not complete (killed, failed, still running).
    public enum Loaded: Sendable {
        case completed(ShardRun)
        case incomplete(path: String, shard: Shard?, status: String)
    }

    /// Reads the newest completed sharded eval run of `path` (a resubmitted shard appends
    /// a new run to its file; the newest that completed counts).
    public static func load(path: String) throws -> Loaded {
        let ids = try RecordingReader.runIDs(path: path)
        var newestIncomplete: (shard: Shard?, status: String)?
        for id in ids.reversed() {
            let run = try RecordingReader.readRun(path: path, id: id)
            guard run.attributes[ShardAttributes.shard] != nil else { continue }
            let shard = try? parseShard(run, path)
            if run.status != "completed" {
                if newestIncomplete == nil { newestIncomplete = (shard, run.status ?? "unknown") }
                continue
            }
            return .completed(try ShardRun(path: path, run: run))
        }
        if let newestIncomplete { return .incomplete(path: path, shard: newestIncomplete.shard, status: newestIncomplete.status) }
        throw FramelabError(.badInput, "'\(path)' holds no shard run (runs: \(ids.isEmpty ? "none" : ids.joined(separator: ", "))); "
                            + "shards are written by framelab eval --shard K/N --out FILE")
    }

    init(path: String, run: RunData) throws {
        self.path = path
        self.run = run
        shard = try Self.parseShard(run, path)
        func attribute(_ name: String) throws -> AttributeValue {
            guard let v = run.attributes[name] else {
                throw FramelabError(.corrupt, "'\(path)' run '\(run.id)': no '\(name)' attribute (not written by framelab eval --shard?)")
            }
            return v
        }
        guard case .string(let f) = try attribute(ShardAttributes.fingerprint) else { throw Self.bad(path, run, ShardAttributes.fingerprint) }
        guard case .strings(let c) = try attribute(ShardAttributes.detectorConfigs) else { throw Self.bad(path, run, ShardAttributes.detectorConfigs) }
        guard case .int(let n) = try attribute(ShardAttributes.datasetImages) else { throw Self.bad(path, run, ShardAttributes.datasetImages) }
        fingerprint = f
        detectorConfigs = c
        datasetImages = Int(n)
        tables = try DetectionTables.Recorded.read(path: path, run: run)
    }

    private static func parseShard(_ run: RunData, _ path: String) throws -> Shard {
        guard case .int(let k)? = run.attributes[ShardAttributes.shardIndex],
              case .int(let n)? = run.attributes[ShardAttributes.shardCount] else {
            throw bad(path, run, ShardAttributes.shardIndex)
        }
        return try Shard(index: Int(k), count: Int(n))
    }

    private static func bad(_ path: String, _ run: RunData, _ name: String) -> FramelabError {
        FramelabError(.corrupt, "'\(path)' run '\(run.id)': attribute '\(name)' is missing or has the wrong type")
    }

    /// Absolute image paths of the whole dataset, as the shard recorded them, by frame.
    public var imagePaths: [Int: String] { tables.imagePaths }
}
