import FramelabDatasets
import Foundation

/// The seeded composite dataset the detector benchmarks time: real face crops
/// (`lfw_subset.npy`) pasted on real background photos, generated into a temporary folder.
enum BenchComposites {
    static let backgrounds = ["brick.png", "grass.png", "gravel.png", "coffee.png"]

    /// `count` composites; remove the returned folder when done.
    static func generate(count: Int, sampleImages: String) throws -> (FaceDataset, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("framelab-bench-\(getpid())")
        let generator = try CompositeGenerator(lfwSubset: sampleImages + "/lfw_subset.npy",
                                               backgrounds: backgrounds.map { sampleImages + "/" + $0 }, seed: 1)
        return (try generator.generate(count: count, into: dir.path), dir)
    }
}
