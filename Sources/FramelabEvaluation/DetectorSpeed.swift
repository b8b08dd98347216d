import FramelabCore
import FramelabCV
import FramelabDetection

/// How long each detector takes per frame at the frame sizes users budget for, one
/// thread: `framelab bench detectors`' speed table and the data of the speed–accuracy
/// frontier. Each detector sees the same photograph resized to each size (so there is a
/// face to find; letterboxed, so faces keep their shape), warms up once, then is timed `repeats` times; min and median are kept.
public enum DetectorSpeed {
    /// The sizes timed by default: QVGA, VGA and 720p.
    public static let defaultSizes: [(width: Int, height: Int)] = [(320, 240), (640, 480), (1280, 720)]

    /// One detector at one size.
    public struct Row: Sendable {
        public var detector: String
        public var width: Int
        public var height: Int
        public var timing: DetectorBenchmark.Timing
        /// Faces the detector found in the timed image (its last run).
        public var faces: Int
    }

    /// A detector that could be timed, or why not.
    public struct Candidate {
        public var label: String
        public var make: () throws -> any FaceDetector
        public init(label: String, make: @escaping () throws -> any FaceDetector) {
            self.label = label
            self.make = make
        }
    }

    /// Times every candidate at every size. `progress(done, total, label)` is called before
    /// each (detector, size) is timed. A detector that throws is reported in `failures`
    /// and the others go on.
    public static func measure(_ candidates: [Candidate], image: Mat, sizes: [(width: Int, height: Int)] = defaultSizes,
                               repeats: Int, warmups: Int = 1,
                               progress: (Int, Int, String) -> Void = { _, _, _ in }) throws
        -> (rows: [Row], failures: [(label: String, reason: String)]) {
        let previous = OpenCVThreads.count
        OpenCVThreads.count = 1
        defer { OpenCVThreads.count = previous }
        let scaled = try sizes.map { try letterboxed(image, width: $0.width, height: $0.height) }
        var rows: [Row] = []
        var failures: [(label: String, reason: String)] = []
        let total = candidates.count * sizes.count
        var done = 0
        for candidate in candidates {
            let first = done
            do {
                let detector = try candidate.make()
                for (k, frame) in scaled.enumerated() {
                    progress(done, total, "\(candidate.label) \(sizes[k].width)x\(sizes[k].height)")
                    done += 1
                    var samples: [Double] = []
                    var found = 0
                    for round in 0..<(warmups + repeats) {
                        let t0 = MonotonicClock.now()
                        found = try detector.detect(frame).count
                        let t1 = MonotonicClock.now()
                        if round >= warmups { samples.append(Double(t1 - t0) / 1e6) }
                    }
                    rows.append(Row(detector: candidate.label, width: sizes[k].width, height: sizes[k].height,
                                    timing: DetectorBenchmark.Timing(samples), faces: found))
                }
            } catch {
                failures.append((candidate.label, (error as? FramelabError)?.message ?? "\(error)"))
                done = first + sizes.count
            }
        }
        progress(total, total, "")
        return (rows, failures)
    }

    /// `image` scaled to fit inside width x height, centred on mid-gray: a face keeps its
    /// aspect ratio at every frame size.
    static func letterboxed(_ image: Mat, width: Int, height: Int) throws -> Mat {
        let scale = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let w = max(1, min(width, Int((Double(image.width) * scale).rounded())))
        let h = max(1, min(height, Int((Double(image.height) * scale).rounded())))
        let canvas = Mat(format: image.format, width: width, height: height)
        canvas.fill(Array(repeating: 128, count: image.format.channels))
        canvas.view(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h)
            .copyPixels(from: try image.resized(width: w, height: h))
        return canvas
    }
}
