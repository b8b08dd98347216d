import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabPipeline

/// Turns the engine's events for a run of detector stages over a dataset into one
/// `FrameResult` per detector and image: what each detector found (from the frame's
/// `DetectedFaces` annotations), how that matched the image's faces, how long it took,
/// and why it failed.
struct EvaluationCollector {
    private let dataset: FaceDataset
    /// Per detector, per image, in the order images finished (dataset order).
    private(set) var frames: [[FrameResult]]
    private(set) var imagesDone = 0
    /// The timings and failures of the frame in progress, by detector.
    private var timings: [Int: (start: UInt64, duration: UInt64)] = [:]
    private var failures: [Int: String] = [:]
    private var sourceFailure: String?

    init(dataset: FaceDataset, detectors: Int) {
        self.dataset = dataset
        frames = Array(repeating: [], count: detectors)
    }

    /// Takes one event; true when it finished an image.
    mutating func add(_ event: PipelineEvent) -> Bool {
        switch event {
        case .timing(_, let stage, let start, let duration):
            timings[stage] = (start, duration)
        case .failure(_, let stage, let reason):
            if stage < 0 { sourceFailure = reason } else { failures[stage] = reason }
        case .frame(let outcome) where !outcome.dropped:
            finish(outcome)
            return true
        case .frame, .output, .sourceEvent:
            break
        }
        return false
    }

    private mutating func finish(_ outcome: FrameOutcome) {
        defer {
            timings = [:]
            failures = [:]
            sourceFailure = nil
            imagesDone += 1
        }
        let item = dataset.images[outcome.index]
        let found = Dictionary(outcome.annotations.all(DetectedFaces.self).map { ($0.stage, $0.faces) }) { a, _ in a }
        for k in frames.indices {
            let time = timings[k] ?? (outcome.arrival, 0)
            if let reason = sourceFailure ?? failures[k] {
                // The image's faces are still there to find: they count as misses, not as nothing.
                frames[k].append(FrameResult(index: outcome.index, name: item.name, failure: reason, detections: [],
                                             match: FaceMatching.match([], item.faces), startNs: time.start,
                                             durationNs: time.duration, faces: item.faces))
                continue
            }
            let detections = found[k] ?? []
            frames[k].append(FrameResult(index: outcome.index, name: item.name, failure: nil, detections: detections,
                                         match: FaceMatching.match(detections, item.faces), startNs: time.start,
                                         durationNs: time.duration, faces: item.faces))
        }
    }
}
