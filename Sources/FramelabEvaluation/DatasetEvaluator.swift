import Foundation
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection
import FramelabElements
import FramelabPipeline
import FramelabSources

/// Several detectors over the same dataset images, matched to the annotations: the
/// pipeline engine over a dataset source, one detector stage per detector.
///
/// Each image is decoded once (BGR) and every detector runs on it, each timed alone.
/// With `threads` > 1 the engine's frame-parallel workers take whole images, each with
/// its own detector instances; results come back in dataset order either way. OpenCV's
/// own thread pool is limited to one thread meanwhile, so timings are one core's and
/// workers scale over images.
public final class DatasetEvaluator: @unchecked Sendable {
    public let dataset: FaceDataset
    public let specs: [ElementSpec]
    /// Frame-parallel workers.
    public let threads: Int
    private let registry: DetectorRegistry

    /// Checks every detector spec (unknown names, bad parameters, unloadable cascades)
    /// before any image is read.
    public init(dataset: FaceDataset, detectors: [ElementSpec], registry: DetectorRegistry = .builtIns,
                threads: Int = 1) throws {
        self.dataset = dataset
        specs = detectors
        self.threads = max(1, threads)
        self.registry = registry
        _ = try makeStages()
    }

    /// The label of detector `k` in tables: its spec as written (`cascade:scale=1.2`).
    public func label(_ k: Int) -> String { specs[k].description }

    public struct Evaluation: Sendable {
        /// Per detector, per image (dataset order).
        public var frames: [[FrameResult]]
        public var wallSeconds: Double

        public init(frames: [[FrameResult]], wallSeconds: Double) {
            self.frames = frames
            self.wallSeconds = wallSeconds
        }
    }

    private func makeStages() throws -> [DetectorStage] {
        try specs.enumerated().map { k, spec in try DetectorStage(spec, position: k, registry: registry, name: spec.description) }
    }

    /// The pipeline of the evaluation in progress, for `requestStop` (from a signal handler's
    /// thread: guarded by `running`; everything else is set once in `init`).
    private let running = Lock()
    private var pipeline: Pipeline?
    private var stopRequested = false

    /// Asks a running evaluation to stop after the images in progress (thread-safe; for
    /// SIGINT/SIGTERM): `run` then returns the images finished so far, in dataset order.
    public func requestStop() {
        running.withLock {
            stopRequested = true
            pipeline?.requestStop()
        }
    }

    /// True when `requestStop` ended the last `run` early.
    public var wasStopped: Bool { running.withLock { stopRequested } }

    /// Evaluates; `progress(done, total)` is called after each image, on the calling thread,
    /// and `image(position, results)` with each finished image's results (one per detector),
    /// in dataset order, so a caller can record as it goes. With no detectors no image is
    /// decoded: there is nothing to run on them.
    public func run(progress: (Int, Int) -> Void = { _, _ in },
                    image: (Int, [FrameResult]) -> Void = { _, _ in }) throws -> Evaluation {
        if specs.isEmpty { return Evaluation(frames: [], wallSeconds: 0) }
        let source = DatasetSource(dataset: dataset, spec: try SourceSpec(parsing: "dataset:memory"), format: .bgr8)
        let pipeline = Pipeline(source: source, stages: try makeStages(), policy: .keepAll, workers: threads)
        let stopped = running.withLock { () -> Bool in
            self.pipeline = pipeline
            return stopRequested
        }
        defer { running.withLock { self.pipeline = nil } }
        if stopped { return Evaluation(frames: Array(repeating: [], count: specs.count), wallSeconds: 0) }
        let previousCVThreads = OpenCVThreads.count
        OpenCVThreads.count = 1
        defer { OpenCVThreads.count = previousCVThreads }
        var collector = EvaluationCollector(dataset: dataset, detectors: specs.count)
        try pipeline.prepare()  // the workers' detectors are made before the clock starts, as the first one is
        let started = MonotonicClock.now()
        try pipeline.run { event in
            guard collector.add(event) else { return }
            progress(collector.imagesDone, dataset.images.count)
            let position = collector.imagesDone - 1
            image(position, collector.frames.map { $0[position] })
        }
        return Evaluation(frames: collector.frames, wallSeconds: Double(MonotonicClock.now() - started) / 1e9)
    }
}
