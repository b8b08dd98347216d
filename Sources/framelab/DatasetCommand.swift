import ArgumentParser
import FramelabCore
import FramelabDatasets
import Foundation

/// `framelab dataset`: work with annotated face datasets.
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Work with annotated face datasets (composites, summaries, contact sheets).",
        subcommands: [DatasetComposeCommand.self, DatasetInfoCommand.self, DatasetShowCommand.self])
}

/// `framelab dataset compose`: seeded composites with exactly known faces.
struct DatasetComposeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Write seeded composite images (real LFW face crops on real photographs) and their faces.csv.",
        discussion: "The same --seed and --count give the same images and boxes. Evaluate with --dataset csv:OUT/faces.csv.")

    @Option(name: .long, help: "Folder to write composite-NNNN.png and faces.csv into.")
    var out: String

    @Option(name: .long, help: "Number of images.")
    var count = 40

    @Option(name: .long, help: "Random seed.")
    var seed: UInt64 = 1

    @Option(name: .customLong("sample-images"), help: "Folder with lfw_subset.npy and the background photos (default: the bundled sample, found in the checkout framelab was built in when not under the working folder).")
    var sampleImages = "Datasets/sample/images"

    @Flag(name: .long, help: "Print one JSON object instead of text: {\"images\", \"faces\", \"dataset\"}.")
    var json = false

    func validate() throws {
        if count < 1 { throw usageError("--count must be at least 1, got \(count)") }
    }

    func run() throws {
        do {
            let sampleImages = Checkout.resolve(self.sampleImages)
            let backgrounds = ["brick.png", "grass.png", "gravel.png", "coffee.png"].map { sampleImages + "/" + $0 }
            let d = try CompositeGenerator(lfwSubset: sampleImages + "/lfw_subset.npy", backgrounds: backgrounds, seed: seed)
                .generate(count: count, into: out)
            if json {
                struct Written: Encodable { let images: Int, faces: Int, dataset: String }
                try printJSON(Written(images: d.images.count, faces: d.faceCount, dataset: "csv:\(d.path)"))
            } else {
                print("wrote \(d.images.count) images with \(d.faceCount) faces; dataset csv:\(d.path)")
            }
        } catch {
            throw failure(error)
        }
    }
}

/// `framelab dataset info`: what a dataset holds.
struct DatasetInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Load a dataset (FORMAT:PATH) and print its images, faces and missing files.")

    @Argument(help: "The dataset, FORMAT:PATH.", completion: ShellCompletion.datasets)
    var dataset: String

    @Flag(name: .long, help: "Print one JSON object instead of text: {\"dataset\", \"images\", \"faces\", \"ignored\", \"missing\": [paths]}.")
    var json = false

    func run() throws {
        do {
            let d = try FaceDataset.load(dataset)
            let missing = d.images.filter { !FileManager.default.fileExists(atPath: $0.path) }
            let ignored = d.images.reduce(0) { $0 + $1.faces.filter(\.ignore).count }
            if json {
                struct Info: Encodable { let dataset: String, images: Int, faces: Int, ignored: Int, missing: [String] }
                try printJSON(Info(dataset: d.name, images: d.images.count, faces: d.faceCount, ignored: ignored,
                                   missing: missing.map(\.path)))
                return
            }
            print("\(d.name): \(d.images.count) images, \(d.faceCount) faces (+\(ignored) ignored), \(missing.count) image files missing")
            if let first = missing.first { print("first missing: \(first.path)") }
        } catch {
            throw failure(error)
        }
    }
}
