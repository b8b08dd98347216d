import ArgumentParser
import FramelabCore
import FramelabEvaluation
import FramelabElements
import FramelabFilters
import FramelabPipeline
import Foundation

/// `framelab bench pipeline`: the engine's serial, stage-parallel and frame-parallel
/// modes side by side, and the engine's own cost per frame.
struct BenchPipelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Compare the engine's serial, --pipelining and --workers modes side by side.",
        discussion: """
            Part 1: --frames copies of one frame through two stages of equal cost (scalar sepia, the frame \
            sized so one stage takes about --stage-ms) in each mode, rounds alternating; wall time min and \
            median, and each mode's speed-up over the serial engine. \
            Part 2: eval of the cascade detector over seeded composites (real face crops on real backgrounds) \
            with --workers 1 and 2. \
            Part 3: the engine's own cost per frame: 20000 frames through four pass-through stages. \
            Goals on 2 cores: pipelining >= 1.8x serial; detector workers 2 >= 1.8x 1; engine < 5 us per frame \
            (serial). Each goal line says met or not met.
            """)

    @Option(name: .long, help: "Frames per timed run in part 1.")
    var frames = 300

    @Option(name: .customLong("stage-ms"), help: "Target milliseconds per stage in part 1 (the frame size is calibrated to it).")
    var stageMilliseconds = 5.0

    @Option(name: .long, help: "Timed rounds per mode after one warm-up run.")
    var repeats = 3

    @Option(name: .customLong("composites"), help: "Composite images for part 2 (0 skips it).")
    var composites = 16

    @Option(name: .customLong("sample-images"), help: "Folder with lfw_subset.npy and background photos for composites.")
    var sampleImages = "Datasets/sample/images"

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if !(1...100_000).contains(frames) { throw usageError("--frames must be from 1 to 100000, got \(frames)") }
        if !(stageMilliseconds >= 0.1 && stageMilliseconds <= 100) {
            throw usageError("--stage-ms must be from 0.1 to 100, got \(stageMilliseconds)")
        }
        if !(1...100).contains(repeats) { throw usageError("--repeats must be from 1 to 100, got \(repeats)") }
        if !(0...1000).contains(composites) { throw usageError("--composites must be from 0 to 1000, got \(composites)") }
    }

    func run() throws {
        // Nothing is recorded before the end: a signal ends it at once, exit 128 + the signal.
        let interrupt = InterruptHandler.exitingAtOnce()
        defer { interrupt.cancel() }
        do {
            let report = try measure()
            if json { try printJSON(report.document) } else { print(report.text()) }
        } catch {
            throw failure(error)
        }
    }

    private func measure() throws -> PipelineBenchReport {
        let progress = { (line: String) in if !json { printToStandardError("framelab: " + line) } }
        let make = try FilterRegistry.builtIns.chainFactories([ElementSpec(name: "sepia")], path: .scalar)[0]
        let image = try calibratedFrame(make)
        let stages = [FilterStage(try make(), makeFilter: make), FilterStage(try make(), makeFilter: make)]
        progress("part 1: \(frames) frames of \(image.width)x\(image.height) through 2 scalar sepia stages, \(repeats) rounds")
        let throughput = try PipelineBenchmark.throughput(image: image, frames: frames, stages: stages, rounds: repeats)
        var scaling: DetectorBenchmark.ThreadScaling?
        if composites > 0 {
            progress("part 2: eval of cascade on \(composites) composites, workers 1 vs 2")
            let (dataset, dir) = try BenchComposites.generate(count: composites, sampleImages: Checkout.resolve(sampleImages))
            defer { try? FileManager.default.removeItem(at: dir) }
            scaling = try DetectorBenchmark.evaluationScaling(dataset: dataset, detectors: [ElementSpec(name: "cascade")],
                                                              repeats: repeats)
        }
        progress("part 3: engine cost with 4 pass-through stages")
        let overhead = try PipelineBenchmark.overhead(frames: PipelineBenchReport.overheadFrames, stageCount: 4, rounds: repeats)
        return PipelineBenchReport(width: image.width, height: image.height, throughput: throughput, scaling: scaling,
                                   overhead: overhead)
    }

    /// A BGRA frame sized so one scalar sepia pass takes about `--stage-ms` here.
    private func calibratedFrame(_ make: () throws -> any FrameFilter) throws -> Mat {
        let probe = Mat(format: .bgra8, width: 640, height: 480)
        let filter = try make()
        let timing = try BenchTimer(warmup: 1, repeats: 5).measure { _ = try filter.process(probe) }
        let scale = (stageMilliseconds / max(timing.medianMs, 0.001)).squareRoot()
        func side(_ n: Int) -> Int { max(16, min(8192, Int((Double(n) * scale / 16).rounded()) * 16)) }
        return Mat(format: .bgra8, width: side(640), height: side(480))
    }
}
