import ArgumentParser
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection
import FramelabElements
import FramelabEvaluation
import FramelabFilters
import FramelabPluginHost
import Foundation

/// `framelab bench detectors`: every installed detector timed at three frame sizes;
/// Framelab's SIMD cascade against OpenCV's CascadeClassifier (same XML, same parameters,
/// one thread); and evaluation on two threads against one.
struct BenchDetectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detectors",
        abstract: "Time every installed face detector at 320x240, 640x480 and 1280x720; compare the cascade with OpenCV's; 2 threads vs 1.",
        discussion: """
            Part 1 (speed): every installed detector — built-in and plugin, with its default parameters; \
            or those given with --detector — runs on one photograph (--image) resized to each size, on one \
            thread (OpenCV's thread pool set to 1): one warm-up call, then --repeats timed calls; min and \
            median ms per frame, the faces found, and which frame budgets (41.7 ms at 24 fps, 16.7 ms at \
            60 fps) the median fits. A detector whose model is missing is listed as unavailable with the reason. \
            Part 2 (cascades): for each cascade XML, both evaluators run every image of the dataset once per \
            round on one thread, rounds interleaved; min and median of the rounds, the speed-up (OpenCV time / \
            cascade time) and the share of OpenCV's boxes that a cascade box matches at IoU >= 0.8. \
            Part 3 (threads): `eval` of opencv-haar, opencv-lbp and cascade over seeded composites (real face \
            crops on real backgrounds, generated into a temporary folder) with --threads 1 and 2; wall-time ratio. \
            Goal lines (checked on the minimums, printed as met or NOT MET): the cascade >= 2.5x faster than \
            OpenCV on each XML with every OpenCV box matched; evaluation on 2 threads >= 1.8x faster than on 1.
            """)

    /// The speed goals the cascade and threads parts check.
    static let cascadeSpeedupGoal = 2.5
    static let threadSpeedupGoal = 1.8

    enum Part: String, ExpressibleByArgument, CaseIterable {
        case speed, cascades, threads
    }

    @Option(name: .customLong("part"), help: "Parts to run: speed, cascades, threads (repeatable; default all three).")
    var parts: [Part] = []

    @Option(name: .customLong("detector"), help: "A detector NAME[:key=value,...] for the speed part (repeatable; default every installed detector).",
            completion: ShellCompletion.detectors)
    var detectors: [String] = []

    @Option(name: .long, help: "The photograph the speed part resizes to each frame size (the defaults of --image, --dataset and --sample-images are found in the checkout framelab was built in when not under the working folder).")
    var image = "Datasets/sample/images/astronaut.png"

    @Flag(name: .long, help: "Print no progress lines and no library warnings (libpng, libjpeg, OpenCV).")
    var quiet = false

    @OptionGroup var plugins: PluginOptions

    @Option(name: .long, help: "Images to time the cascades on (FORMAT:PATH).", completion: ShellCompletion.datasets)
    var dataset = "csv:Datasets/sample/faces.csv"

    @Option(name: .customLong("cascade"), help: "Cascade XML to compare (repeatable; default: frontalface_default and alt2).")
    var cascades: [String] = []

    @Option(name: .long, help: "Timed rounds after one warm-up round.")
    var repeats = 5

    @Option(name: .long, help: "Pyramid scale step.")
    var scale = 1.1

    @Option(name: .long, help: "Neighbours a box needs.")
    var neighbours = 3

    @Option(name: .customLong("min-size"), help: "Smallest face searched for, in pixels.")
    var minSize = 24

    @Option(name: .customLong("composites"), help: "Composite images for the thread-scaling part (0 skips it).")
    var composites = 24

    @Option(name: .customLong("sample-images"), help: "Folder with lfw_subset.npy and background photos for composites.")
    var sampleImages = "Datasets/sample/images"

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if repeats < 1 { throw usageError("--repeats must be at least 1, got \(repeats)") }
        if scale <= 1 { throw usageError("--scale must be greater than 1, got \(scale)") }
        if composites < 0 { throw usageError("--composites must not be negative, got \(composites)") }
    }

    func run() throws {
        LibraryMessages.isSilenced = quiet
        // Nothing is recorded before the end: a signal ends it at once, exit 128 + the signal.
        let interrupt = InterruptHandler.exitingAtOnce()
        defer { interrupt.cancel() }
        do {
            let chosen = Set(parts.isEmpty ? Part.allCases : parts)
            var speed: DetectorSpeedReport?
            if chosen.contains(.speed) {
                speed = try DetectorSpeedReport.measure(detectors: detectors, image: Checkout.resolve(image), repeats: repeats,
                                                        plugins: plugins, progress: !quiet)
                if !json { speed?.printText() }
            }
            guard chosen.contains(.cascades) || chosen.contains(.threads) else {
                if json { try printDocument([], nil, speed) }
                return
            }
            let data = try FaceDataset.load(Checkout.resolveDataset(dataset))
            let images = data.images.compactMap { try? ImageCodec.read($0.path, as: .gray8) }
            guard !images.isEmpty else { throw FramelabError(.badInput, "dataset '\(dataset)': no readable images") }
            let xmls = cascades.isEmpty ? [CascadeFiles.haarFrontalFace, CascadeFiles.haarFrontalFaceAlt2] : cascades
            let settings = SlidingWindowSettings(scaleFactor: scale, minNeighbours: neighbours, minSize: minSize)
            if !json && chosen.contains(.cascades) { print("== cascade vs opencv-haar: \(images.count) images, scale \(scale), neighbours \(neighbours), min-size \(minSize), 1 thread, \(repeats) rounds, cascade kernels \(KernelLevel.current) (FRAMELAB_ISA)") }
            let rows = chosen.contains(.cascades)
                ? try DetectorBenchmark.compareCascades(images: images, cascades: xmls, settings: settings, repeats: repeats) : []
            var scaling: DetectorBenchmark.ThreadScaling?
            if composites > 0 && chosen.contains(.threads) {
                let (composite, dir) = try BenchComposites.generate(count: composites, sampleImages: Checkout.resolve(sampleImages))
                defer { try? FileManager.default.removeItem(at: dir) }
                let specs = try ["opencv-haar", "opencv-lbp", "cascade"].map { try ElementSpec(parsing: $0) }
                scaling = try DetectorBenchmark.evaluationScaling(dataset: composite, detectors: specs, repeats: max(1, repeats / 2))
            }
            if json {
                try printDocument(rows, scaling, speed)
            } else {
                printText(rows, scaling)
            }
        } catch {
            throw failure(error)
        }
    }

    private func printText(_ rows: [DetectorBenchmark.CascadeComparison], _ scaling: DetectorBenchmark.ThreadScaling?) {
        guard !rows.isEmpty || scaling != nil else { return }
        if !rows.isEmpty { print("cascade XML                           opencv min/median ms   cascade min/median ms   speed-up min (median)   boxes matched") }
        for r in rows {
            let name = (r.cascade as NSString).lastPathComponent
            let padded = name.count >= 37 ? name : name + String(repeating: " ", count: 37 - name.count)
            print(padded + String(format: " %9.1f / %-9.1f %10.1f / %-9.1f %8.2fx (%.2fx) %10d/%d (%.1f%%)",
                         r.openCV.min, r.openCV.median, r.framelab.min, r.framelab.median, r.speedup, r.medianSpeedup,
                         r.matchedBoxes, r.openCVBoxes, 100 * r.matchedShare))
        }
        if let s = scaling {
            print("== eval opencv-haar + opencv-lbp + cascade on \(s.images) composites: 1 thread vs 2 threads")
            print(String(format: "1 thread %.1f ms (median %.1f), 2 threads %.1f ms (median %.1f): %.2fx (median %.2fx)",
                         s.oneThread.min, s.oneThread.median, s.twoThreads.min, s.twoThreads.median, s.speedup, s.medianSpeedup))
        }
        for goal in goals(rows, scaling) { print("goal: \(goal.text): \(goal.met ? "met" : "NOT MET")") }
    }

    /// Each goal the parts that ran can check, with whether it was met.
    private func goals(_ rows: [DetectorBenchmark.CascadeComparison],
                       _ scaling: DetectorBenchmark.ThreadScaling?) -> [(text: String, met: Bool)] {
        var out = rows.map { r in
            ("cascade >= \(Self.cascadeSpeedupGoal)x OpenCV, every box matched, on \((r.cascade as NSString).lastPathComponent): "
                + String(format: "%.2fx, %d/%d boxes", r.speedup, r.matchedBoxes, r.openCVBoxes),
             r.speedup >= Self.cascadeSpeedupGoal && r.matchedBoxes == r.openCVBoxes)
        }
        if let s = scaling {
            out.append((String(format: "eval on 2 threads >= %.1fx 1 thread: %.2fx", Self.threadSpeedupGoal, s.speedup),
                        s.speedup >= Self.threadSpeedupGoal))
        }
        return out
    }

    /// What `bench detectors --json` prints: {"cascades": [...], "goals": [{goal, met}], and
    /// "speed" with "unavailable" when the speed part ran, "eval_threads" when the thread part did}.
    private struct Document: Encodable {
        struct Cascade: Encodable {
            let cascade: String, opencv_min_ms: Double, opencv_median_ms: Double, cascade_min_ms: Double
            let cascade_median_ms: Double, speedup: Double, median_speedup: Double, opencv_boxes: Int
            let matched_boxes: Int, cascade_boxes: Int, matched_share: Double, kernel_level: String
        }
        struct GoalLine: Encodable { let goal: String, met: Bool }
        struct EvalThreads: Encodable {
            let images: Int, one_thread_min_ms: Double, two_threads_min_ms: Double, speedup: Double, median_speedup: Double
        }
        let cascades: [Cascade]
        let goals: [GoalLine]
        let speed: [DetectorSpeedReport.SpeedJSON]?
        let unavailable: [DetectorSpeedReport.UnavailableJSON]?
        let eval_threads: EvalThreads?
    }

    private func printDocument(_ rows: [DetectorBenchmark.CascadeComparison], _ scaling: DetectorBenchmark.ThreadScaling?,
                           _ speed: DetectorSpeedReport?) throws {
        try printJSON(Document(
            cascades: rows.map { r in
                .init(cascade: r.cascade, opencv_min_ms: r.openCV.min, opencv_median_ms: r.openCV.median,
                      cascade_min_ms: r.framelab.min, cascade_median_ms: r.framelab.median, speedup: r.speedup,
                      median_speedup: r.medianSpeedup, opencv_boxes: r.openCVBoxes, matched_boxes: r.matchedBoxes,
                      cascade_boxes: r.framelabBoxes, matched_share: r.matchedShare, kernel_level: r.kernelLevel)
            },
            goals: goals(rows, scaling).map { .init(goal: $0.text, met: $0.met) },
            speed: speed?.speedJSON, unavailable: speed?.unavailableJSON,
            eval_threads: scaling.map { s in
                .init(images: s.images, one_thread_min_ms: s.oneThread.min, two_threads_min_ms: s.twoThreads.min,
                      speedup: s.speedup, median_speedup: s.medianSpeedup)
            }))
    }
}
