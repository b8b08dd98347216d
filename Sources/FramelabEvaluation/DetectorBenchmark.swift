import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection
import FramelabElements

/// Side-by-side timings for `framelab bench detectors`: Framelab's cascade against
/// OpenCV's CascadeClassifier on one thread, and evaluation on one thread against two.
/// Every measurement warms up first, repeats, and keeps the minimum and the median.
public enum DetectorBenchmark {
    /// Minimum and median of repeated measurements, in milliseconds.
    public struct Timing: Sendable {
        public var min: Double
        public var median: Double
        init(_ samples: [Double]) {
            let s = SampleStatistics(samples)
            min = s.sorted.first ?? 0
            median = s.percentile(50)
        }
    }

    public struct CascadeComparison: Sendable {
        public var cascade: String
        /// Time to run every image once.
        public var openCV: Timing
        public var framelab: Timing
        /// OpenCV's boxes, and those a Framelab box matches at IoU >= 0.8.
        public var openCVBoxes: Int
        public var matchedBoxes: Int
        public var framelabBoxes: Int
        /// The instruction-set level Framelab's cascade ran at ("avx2", …: `FRAMELAB_ISA`).
        public var kernelLevel: String
        public var speedup: Double { framelab.min > 0 ? openCV.min / framelab.min : 0 }
        public var medianSpeedup: Double { framelab.median > 0 ? openCV.median / framelab.median : 0 }
        public var matchedShare: Double { openCVBoxes == 0 ? 1 : Double(matchedBoxes) / Double(openCVBoxes) }
    }

    /// Runs both evaluators over `images` (gray8) with the same XML and settings on one thread.
    public static func compareCascades(images: [Mat], cascades: [String], settings: SlidingWindowSettings,
                                       repeats: Int, warmups: Int = 1) throws -> [CascadeComparison] {
        let previous = OpenCVThreads.count
        OpenCVThreads.count = 1
        defer { OpenCVThreads.count = previous }
        return try cascades.map { path in
            let opencv = try CascadeClassifier(path: path)
            let ours = try HaarCascadeEvaluator(path: path)
            let runOpenCV = {
                try images.map { try opencv.detect($0, scaleFactor: settings.scaleFactor, minNeighbours: settings.minNeighbours,
                                                   minSize: settings.minSize, maxSize: settings.maxSize) }
            }
            let runOurs = { try images.map { try ours.detect($0, settings: settings) } }
            var a: [Double] = [], b: [Double] = []
            // Interleaved, so both see the same machine load.
            for round in 0..<(warmups + repeats) {
                let t0 = MonotonicClock.now()
                _ = try runOpenCV()
                let t1 = MonotonicClock.now()
                _ = try runOurs()
                let t2 = MonotonicClock.now()
                if round >= warmups {
                    a.append(Double(t1 - t0) / 1e6)
                    b.append(Double(t2 - t1) / 1e6)
                }
            }
            let theirs = try runOpenCV(), mine = try runOurs()
            var total = 0, matched = 0, found = 0
            for (t, m) in zip(theirs, mine) {
                total += t.count
                found += m.count
                for box in t {
                    let ob = BoundingBox(x: box.x, y: box.y, width: box.width, height: box.height)
                    if m.contains(where: { $0.box.iou(ob) >= 0.8 }) { matched += 1 }
                }
            }
            return CascadeComparison(cascade: path, openCV: Timing(a), framelab: Timing(b), openCVBoxes: total,
                                     matchedBoxes: matched, framelabBoxes: found, kernelLevel: ours.kernelLevel)
        }
    }

    public struct ThreadScaling: Sendable {
        public var oneThread: Timing
        public var twoThreads: Timing
        public var images: Int
        public var speedup: Double { twoThreads.min > 0 ? oneThread.min / twoThreads.min : 0 }
        public var medianSpeedup: Double { twoThreads.median > 0 ? oneThread.median / twoThreads.median : 0 }
    }

    /// Wall time of a whole evaluation with one thread and with two, alternating.
    public static func evaluationScaling(dataset: FaceDataset, detectors: [ElementSpec], repeats: Int,
                                         warmups: Int = 1) throws -> ThreadScaling {
        let one = try DatasetEvaluator(dataset: dataset, detectors: detectors, threads: 1)
        let two = try DatasetEvaluator(dataset: dataset, detectors: detectors, threads: 2)
        var a: [Double] = [], b: [Double] = []
        for round in 0..<(warmups + repeats) {
            let r1 = try one.run(), r2 = try two.run()
            if round >= warmups {
                a.append(r1.wallSeconds * 1000)
                b.append(r2.wallSeconds * 1000)
            }
        }
        return ThreadScaling(oneThread: Timing(a), twoThreads: Timing(b), images: dataset.images.count)
    }
}
