import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabElements
import FramelabRecording
import FramelabRuns
import FramelabScaleOut
import Foundation

/// `framelab eval`'s slice of the dataset (`--shard K/N`, or the scheduler's environment)
/// and what every eval run records about its dataset and detectors (docs/scale-out.md).
struct EvalSharding {
    let shard: Shard?
    /// The dataset as loaded (after --limit), before taking the shard's images.
    let whole: FaceDataset
    /// Positions in `whole` of the images evaluated.
    let positions: [Int]

    /// Resolves the shard and narrows `data` to its images.
    static func select(_ data: inout FaceDataset, option: String?, countOption: Int?) throws -> EvalSharding {
        let shard = try ShardEnvironment.resolve(option: option, countOption: countOption,
                                                 environment: ProcessInfo.processInfo.environment)
        let whole = data
        let positions = shard?.positions(in: whole.images.map(\.name)) ?? Array(whole.images.indices)
        data.images = positions.map { whole.images[$0] }
        return EvalSharding(shard: shard, whole: whole, positions: positions)
    }

    /// The fingerprint, detector configurations and shard attributes of the run.
    func attributes(specs: [ElementSpec], registry: DetectorRegistry) throws -> [String: AttributeValue] {
        var attributes = ShardAttributes.evaluation(fingerprint: DatasetFingerprint.compute(whole),
                                                    detectorConfigs: try DetectorConfiguration.resolved(specs, registry: registry),
                                                    datasetImages: whole.images.count)
        if let shard { attributes.merge(ShardAttributes.of(shard)) { $1 } }
        return attributes
    }

    /// Every image of the whole dataset: a shard's frames keep their dataset-wide numbers.
    var wholePaths: [String] { whole.images.map(\.path) }

    var summary: String? {
        shard.map { "framelab: shard \($0): \(positions.count) of \(whole.images.count) images (fnv1a64(name) mod \($0.count))" }
    }
}
