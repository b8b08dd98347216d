import FramelabCore
import FramelabEvaluation
import FramelabRecording

/// The AP half of `RunComparison`: two eval runs' detectors scored on the images both runs
/// evaluated, the difference given a paired bootstrap interval over images. The runs must
/// be over the same images with the same annotations; otherwise nothing is compared and
/// the reason says how they differ.
enum DetectorComparison {
    struct Outcome {
        var images: Int?
        var detectors: [RunComparison.DetectorDifference]
        var reason: String?
    }

    /// One run's scored detections, ready for resampling: each detector's outcomes sorted
    /// by score (highest first) with the position of their image, and faces per image.
    struct Scored {
        /// Image path → position in the run's image order.
        let position: [String: Int]
        /// Annotated faces that count (ignore faces left out) per image position.
        let faces: [Int]
        /// Per detector stage: outcomes sorted by score, and each outcome's image position.
        let outcomes: [[ScoredOutcome]]
        let images: [[Int]]

        init(path: String, run: RunData) throws {
            let tables = try DetectionTables.Recorded.read(path: path, run: run)
            let frames = run.frames.map { Int($0.index) }
            var position: [String: Int] = [:]
            for (k, frame) in frames.enumerated() {
                // A frame without a recorded path can only pair by number; such runs do not pair with others.
                position[tables.imagePaths[frame] ?? "frame \(frame)", default: k] = k
            }
            let slot = Dictionary(frames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            var faces = [Int](repeating: 0, count: frames.count)
            for face in tables.groundTruth where !face.truth.ignore {
                if let k = slot[Int(face.frame)] { faces[k] += 1 }
            }
            var scored = [[(ScoredOutcome, Int)]](repeating: [], count: run.stageNames.count)
            for d in tables.detections {
                let stage = Int(d.detector)
                guard scored.indices.contains(stage), let k = slot[Int(d.frame)] else { continue }
                switch d.outcome {
                case .truePositive: scored[stage].append((ScoredOutcome(score: d.detection.score, isTruePositive: true), k))
                case .falsePositive: scored[stage].append((ScoredOutcome(score: d.detection.score, isTruePositive: false), k))
                case .ignored, .unmatched: break
                }
            }
            self.position = position
            self.faces = faces
            let sorted = scored.map { $0.sorted { $0.0.score > $1.0.score } }
            outcomes = sorted.map { $0.map(\.0) }
            images = sorted.map { $0.map(\.1) }
        }

        /// AP of `stage` when image k is counted `drawn[k]` times (nil: each once).
        func averagePrecision(_ stage: Int, drawn: [Int]? = nil) -> Double {
            let imageOf = images[stage]
            let faceCount = drawn.map { d in zip(d, faces).reduce(0) { $0 + $1.0 * $1.1 } } ?? faces.reduce(0, +)
            let pr = drawn.map { d in PrecisionRecall(descending: outcomes[stage], faces: faceCount) { d[imageOf[$0]] } }
                ?? PrecisionRecall(descending: outcomes[stage], faces: faceCount)
            return pr.averagePrecision
        }
    }

    static func compare(_ pathA: String, _ runA: RunData, _ pathB: String, _ runB: RunData, pairing: StagePairing,
                        namesA: [String], namesB: [String], bootstrap: Bootstrap,
                        progress: (_ done: Int, _ detector: String) -> Void) throws -> Outcome {
        let a = try Scored(path: pathA, run: runA), b = try Scored(path: pathB, run: runB)
        if let difference = Self.imagesDiffer(a, b) {
            return Outcome(images: nil, detectors: [], reason: difference)
        }
        // B's image positions in A's order, so a resample of A's images is the same resample of B's.
        let order = a.position.sorted { $0.value < $1.value }.map { b.position[$0.key]! }
        var differences: [RunComparison.DetectorDifference] = []
        for (k, pair) in pairing.pairs.enumerated() {
            progress(k, namesA[pair.a])
            let apA = a.averagePrecision(pair.a), apB = b.averagePrecision(pair.b)
            let interval = bootstrap.interval { rng in
                let drawnA = Bootstrap.multiplicities(a.faces.count, &rng)
                var drawnB = [Int](repeating: 0, count: drawnA.count)
                for (k, times) in drawnA.enumerated() { drawnB[order[k]] = times }
                return b.averagePrecision(pair.b, drawn: drawnB) - a.averagePrecision(pair.a, drawn: drawnA)
            }
            differences.append(RunComparison.DetectorDifference(
                a_detector: namesA[pair.a], b_detector: namesB[pair.b], a_ap: apA, b_ap: apB, difference: apB - apA,
                interval: [interval.lowerBound, interval.upperBound]))
        }
        return Outcome(images: a.faces.count, detectors: differences, reason: nil)
    }

    /// Why the two runs' images cannot be paired: different images, or the same images
    /// annotated differently. Nil when they pair.
    static func imagesDiffer(_ a: Scored, _ b: Scored) -> String? {
        let setA = Set(a.position.keys), setB = Set(b.position.keys)
        guard setA == setB, a.position.count == a.faces.count, b.position.count == b.faces.count else {
            let common = setA.intersection(setB).count
            return "the runs are over different images (A \(a.faces.count), B \(b.faces.count), \(common) in common): "
                + "AP differences need the same images in both runs"
        }
        let annotated = a.position.filter { a.faces[$0.value] != b.faces[b.position[$0.key]!] }.count
        guard annotated == 0 else {
            return "the runs' annotations differ on \(annotated) of \(a.faces.count) images: AP differences need the same ground truth"
        }
        return nil
    }
}
