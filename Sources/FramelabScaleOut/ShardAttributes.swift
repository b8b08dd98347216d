import FramelabRecording

/// The run attributes that make an eval run a shard (docs/scale-out.md), and that every
/// eval run carries so runs can be compared.
public enum ShardAttributes {
    /// "K/N".
    public static let shard = "shard"
    public static let shardIndex = "shard_index"
    public static let shardCount = "shard_count"
    /// How images were assigned to shards (`fnv1a64(name) mod N`).
    public static let assignment = "shard_assignment"
    public static let assignmentRule = "fnv1a64(image name in the dataset) mod shard_count"
    /// Images in the whole dataset (after --limit), of which the shard took some.
    public static let datasetImages = "dataset_images"
    public static let fingerprint = "dataset_fingerprint"
    public static let detectorConfigs = "detector_configs"
    /// On merged runs: the shards merged ("K/N" each), the files they came from, and the
    /// shards missing from a partial merge.
    public static let mergedShards = "merged_shards"
    public static let mergedFiles = "merged_files"
    public static let missingShards = "missing_shards"

    /// What every eval run records (sharded or not).
    public static func evaluation(fingerprint: String, detectorConfigs: [String], datasetImages: Int)
        -> [String: AttributeValue] {
        [
            Self.fingerprint: .string(fingerprint),
            Self.detectorConfigs: .strings(detectorConfigs),
            Self.datasetImages: .int(Int64(datasetImages)),
        ]
    }

    /// What a shard run adds.
    public static func of(_ shard: Shard) -> [String: AttributeValue] {
        [
            Self.shard: .string(shard.description),
            Self.shardIndex: .int(Int64(shard.index)),
            Self.shardCount: .int(Int64(shard.count)),
            Self.assignment: .string(assignmentRule),
        ]
    }
}
