import Foundation
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection
import FramelabFilters

/// Runs several detectors over the same dataset images on N threads and matches what
/// they find to the annotations.
///
/// Each thread owns one instance of every detector (instances are not shared across
/// threads), takes the next image, decodes it once and runs every detector on it, timing
/// each call alone. OpenCV's own thread pool is limited to one thread meanwhile, so the
/// timings are one core's and N threads scale over images.
public final class DatasetEvaluator {
    public let dataset: FaceDataset
    public let specs: [ElementSpec]
    public let threads: Int
    let descriptors: [DetectorDescriptor]

    /// Checks every detector spec (unknown names, bad parameters, unloadable cascades)
    /// before any image is read.
    public init(dataset: FaceDataset, detectors: [ElementSpec], registry: DetectorRegistry = .builtIns,
                threads: Int = 1) throws {
        self.dataset = dataset
        specs = detectors
        self.threads = max(1, threads)
        descriptors = try detectors.map { try registry.descriptor(for: $0) }
        for (d, s) in zip(descriptors, specs) { _ = try d.instantiate(s) }
    }

    /// The label of detector `k` in tables: its spec as written (`cascade:scale=1.2`).
    public func label(_ k: Int) -> String { specs[k].description }

    public struct Evaluation: Sendable {
        /// Per detector, per image (dataset order).
        public var frames: [[FrameResult]]
        public var wallSeconds: Double
    }

    /// Evaluates; `progress(done, total)` is called after each image (from worker threads, serialised).
    public func run(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> Evaluation {
        let images = dataset.images
        let box = ResultBox(detectors: specs.count, images: images.count)
        let previousCVThreads = OpenCVThreads.count
        OpenCVThreads.count = 1
        defer { OpenCVThreads.count = previousCVThreads }
        let started = MonotonicClock.now()
        let descriptors = self.descriptors, specs = self.specs
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                let detectors = try zip(descriptors, specs).map { try $0.instantiate($1) }
                while let i = box.nextImage() {
                    let item = images[i]
                    let decoded: Result<Mat, Error>
                    do { decoded = .success(try ImageCodec.read(item.path, as: .bgr8)) } catch { decoded = .failure(error) }
                    for (k, detector) in detectors.enumerated() {
                        box.store(Self.evaluate(detector, decoded, item, index: i), detector: k, image: i)
                    }
                    progress(box.finishImage(), images.count)
                }
            } catch {
                box.fail(error)
            }
        }
        if let error = box.error { throw error }
        return Evaluation(frames: box.collect(), wallSeconds: Double(MonotonicClock.now() - started) / 1e9)
    }

    static func evaluate(_ detector: any FaceDetector, _ decoded: Result<Mat, Error>, _ item: AnnotatedImage,
                         index: Int) -> FrameResult {
        let empty = FrameMatch(outcomes: [], matchedDetection: [], faces: 0)
        switch decoded {
        case .failure(let error):
            return FrameResult(index: index, name: item.name, failure: message(error), detections: [], match: empty,
                               startNs: MonotonicClock.now(), durationNs: 0)
        case .success(let image):
            let start = MonotonicClock.now()
            do {
                let found = try detector.detect(image)
                let duration = MonotonicClock.now() - start
                return FrameResult(index: index, name: item.name, failure: nil, detections: found,
                                   match: FaceMatching.match(found, item.faces), startNs: start, durationNs: duration,
                                   faces: item.faces)
            } catch {
                return FrameResult(index: index, name: item.name, failure: "\(detector.name): \(message(error))",
                                   detections: [], match: empty, startNs: start, durationNs: MonotonicClock.now() - start)
            }
        }
    }

    static func message(_ error: Error) -> String { (error as? FramelabError)?.message ?? "\(error)" }
}

/// Results written by the worker threads, behind one lock.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var done = 0
    private let total: Int
    private var slots: [[FrameResult?]]
    var error: Error?

    init(detectors: Int, images: Int) {
        total = images
        slots = Array(repeating: Array(repeating: nil, count: images), count: detectors)
    }

    func nextImage() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard error == nil, next < total else { return nil }
        next += 1
        return next - 1
    }

    func store(_ r: FrameResult, detector: Int, image: Int) {
        lock.lock(); slots[detector][image] = r; lock.unlock()
    }

    func finishImage() -> Int {
        lock.lock(); defer { lock.unlock() }
        done += 1
        return done
    }

    func collect() -> [[FrameResult]] {
        lock.lock(); defer { lock.unlock() }
        return slots.map { $0.compactMap { $0 } }
    }

    func fail(_ e: Error) {
        lock.lock(); if error == nil { error = e }; lock.unlock()
    }
}
