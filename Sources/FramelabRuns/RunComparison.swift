import FramelabCore
import FramelabRecording

/// `framelab compare A.h5[:RUN] B.h5[:RUN]`: what differs between two runs, with the
/// uncertainty of each difference. Per paired stage (and end to end, for two pipeline runs):
/// the difference of median milliseconds B − A with a percentile bootstrap interval
/// (each run's frames resampled independently) and a Mann–Whitney U test. Per paired
/// detector of two eval runs over the same images: the AP difference B − A with a paired
/// bootstrap interval (images resampled, the same images for both runs). Stages pair as
/// `StagePairing` says.
public struct RunComparison: Encodable, Sendable {
    /// One of the two runs.
    public struct Side: Encodable, Sendable {
        public let file: String
        public let run: String
        public let kind: String
        public let frames: Int
        public let stages: [String]
    }

    /// One stage's timings in A and B.
    public struct StageDifference: Encodable, Sendable {
        public let a_stage: String, b_stage: String
        public let a_frames: Int, b_frames: Int
        public let a_median_ms: Double, b_median_ms: Double
        /// b_median_ms − a_median_ms.
        public let difference_ms: Double
        /// The bootstrap interval of the difference of medians, [low, high].
        public let interval_ms: [Double]
        /// b_median_ms / a_median_ms (nil when A's median is 0).
        public let ratio: Double?
        /// Mann–Whitney U of B's times against A's, its z and two-sided p.
        public let mann_whitney_u: Double, z: Double, p: Double
        /// Share of (A, B) frame pairs in which B's time is the longer (ties half).
        public let b_slower_share: Double

        private enum CodingKeys: String, CodingKey {
            case a_stage, b_stage, a_frames, b_frames, a_median_ms, b_median_ms, difference_ms, interval_ms, ratio
            case mann_whitney_u, z, p, b_slower_share
        }

        // Written by hand so an absent ratio is `null`, not a missing key.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(a_stage, forKey: .a_stage); try c.encode(b_stage, forKey: .b_stage)
            try c.encode(a_frames, forKey: .a_frames); try c.encode(b_frames, forKey: .b_frames)
            try c.encode(a_median_ms, forKey: .a_median_ms); try c.encode(b_median_ms, forKey: .b_median_ms)
            try c.encode(difference_ms, forKey: .difference_ms); try c.encode(interval_ms, forKey: .interval_ms)
            try c.encode(ratio, forKey: .ratio); try c.encode(mann_whitney_u, forKey: .mann_whitney_u)
            try c.encode(z, forKey: .z); try c.encode(p, forKey: .p); try c.encode(b_slower_share, forKey: .b_slower_share)
        }
    }

    /// One detector's AP in A and B, over the images both runs evaluated.
    public struct DetectorDifference: Encodable, Sendable {
        public let a_detector: String, b_detector: String
        public let a_ap: Double, b_ap: Double
        /// b_ap − a_ap.
        public let difference: Double
        /// The paired bootstrap interval of the difference, [low, high].
        public let interval: [Double]
    }

    public let a: Side, b: Side
    public let resamples: Int
    public let seed: UInt64
    public let confidence: Double
    public let stages: [StageDifference]
    /// Stages without a partner in the other run, and paired stages one run did not time
    /// (saved predictions).
    public let only_in_a: [String], only_in_b: [String], untimed: [String]
    /// Images both eval runs evaluated, the unit of the paired bootstrap (nil: AP not compared).
    public let images: Int?
    public let detectors: [DetectorDifference]
    /// Why the detectors' AP was not compared (nil when it was, or when neither run is an eval run).
    public let detectors_not_compared: String?

    private enum CodingKeys: String, CodingKey {
        case a, b, resamples, seed, confidence, stages, only_in_a, only_in_b, untimed, images, detectors, detectors_not_compared
    }

    // Written by hand so absent values are `null`, not missing keys.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(a, forKey: .a); try c.encode(b, forKey: .b)
        try c.encode(resamples, forKey: .resamples); try c.encode(seed, forKey: .seed)
        try c.encode(confidence, forKey: .confidence); try c.encode(stages, forKey: .stages)
        try c.encode(only_in_a, forKey: .only_in_a); try c.encode(only_in_b, forKey: .only_in_b)
        try c.encode(untimed, forKey: .untimed); try c.encode(images, forKey: .images)
        try c.encode(detectors, forKey: .detectors); try c.encode(detectors_not_compared, forKey: .detectors_not_compared)
    }

    /// The label of the end-to-end row.
    public static let endToEnd = "end-to-end"

    /// Compares two recorded runs. Errors are one line naming the file and run. `progress`
    /// hears (done, total, the next item's name) before each stage and detector is
    /// bootstrapped: long runs (a million frames) take seconds per item.
    public init(_ refA: RunReference, _ refB: RunReference, bootstrap: Bootstrap = Bootstrap(),
                progress: (_ done: Int, _ total: Int, _ item: String) -> Void = { _, _, _ in }) throws {
        let idA = try refA.resolvedRunID(), idB = try refB.resolvedRunID()
        let runA = try RecordingReader.readRun(path: refA.path, id: idA)
        let runB = try RecordingReader.readRun(path: refB.path, id: idB)
        let kindA = Self.kind(runA), kindB = Self.kind(runB)
        for (ref, id, kind) in [(refA, idA, kindA), (refB, idB, kindB)] where kind != "run" && kind != "eval" {
            throw FramelabError(.unsupported, "'\(ref.path)' run '\(id)' is a '\(kind)' run: compare takes pipeline runs (framelab run) and eval runs")
        }
        let namesA = StageNames.unique(runA.stageNames), namesB = StageNames.unique(runB.stageNames)
        a = Side(file: refA.path, run: idA, kind: kindA, frames: runA.frames.count, stages: namesA)
        b = Side(file: refB.path, run: idB, kind: kindB, frames: runB.frames.count, stages: namesB)
        resamples = bootstrap.resamples
        seed = bootstrap.seed
        confidence = bootstrap.level

        let pairing = StagePairing(a: namesA, b: namesB)
        only_in_a = pairing.onlyA.map { namesA[$0] }
        only_in_b = pairing.onlyB.map { namesB[$0] }
        let tallyA = RunTally(recorded: runA), tallyB = RunTally(recorded: runB)
        var stages: [StageDifference] = [], untimed: [String] = []
        let bothEval = kindA == "eval" && kindB == "eval"
        let bothPipelines = kindA == "run" && kindB == "run"
        let total = pairing.pairs.count * (bothEval ? 2 : 1) + (bothPipelines ? 1 : 0)
        for (k, pair) in pairing.pairs.enumerated() {
            progress(k, total, namesA[pair.a])
            let sa = tallyA.stageSamples(pair.a), sb = tallyB.stageSamples(pair.b)
            guard !sa.isEmpty, !sb.isEmpty else {
                untimed.append(namesA[pair.a] == namesB[pair.b] ? namesA[pair.a] : "\(namesA[pair.a]) / \(namesB[pair.b])")
                continue
            }
            stages.append(Self.difference(namesA[pair.a], sa, namesB[pair.b], sb, bootstrap))
        }
        if bothPipelines, !tallyA.latencySamples.isEmpty, !tallyB.latencySamples.isEmpty {
            progress(pairing.pairs.count, total, Self.endToEnd)
            stages.append(Self.difference(Self.endToEnd, tallyA.latencySamples, Self.endToEnd, tallyB.latencySamples, bootstrap))
        }
        self.stages = stages
        self.untimed = untimed

        if bothEval {
            let outcome = try DetectorComparison.compare(refA.path, runA, refB.path, runB, pairing: pairing,
                                                         namesA: namesA, namesB: namesB, bootstrap: bootstrap) { k, name in
                progress(pairing.pairs.count + k, total, "AP of " + name)
            }
            images = outcome.images
            detectors = outcome.detectors
            detectors_not_compared = outcome.reason
        } else {
            images = nil
            detectors = []
            detectors_not_compared = kindA == kindB ? nil
                : "AP needs two eval runs: A is \(Self.article(kindA)), B \(Self.article(kindB))"
        }
        if stages.isEmpty && untimed.isEmpty && detectors.isEmpty {
            throw FramelabError(.badInput, "nothing to compare: \(refA.path) run '\(idA)' (\(Self.article(kindA)): "
                                + "\(namesA.joined(separator: ", "))) and \(refB.path) run '\(idB)' (\(Self.article(kindB)): "
                                + "\(namesB.joined(separator: ", "))) have no stage in common")
        }
    }

    static func article(_ kind: String) -> String {
        kind == "eval" ? "an eval run" : kind == "run" ? "a pipeline run" : "a '\(kind)' run"
    }

    static func kind(_ run: RunData) -> String {
        if case .string(let k)? = run.attributes["kind"], !k.isEmpty { return k }
        return "run"
    }

    /// The difference of medians with its bootstrap interval, and the Mann–Whitney test.
    static func difference(_ nameA: String, _ a: [Double], _ nameB: String, _ b: [Double], _ bootstrap: Bootstrap)
        -> StageDifference {
        let sortedA = a.sorted(), sortedB = b.sorted()
        let medianA = SampleStatistics(sortedA).percentile(50), medianB = SampleStatistics(sortedB).percentile(50)
        let interval = bootstrap.interval { rng in
            Bootstrap.resampledMedian(sortedB, &rng) - Bootstrap.resampledMedian(sortedA, &rng)
        }
        let test = MannWhitneyU(b, a)
        return StageDifference(a_stage: nameA, b_stage: nameB, a_frames: a.count, b_frames: b.count,
                               a_median_ms: medianA, b_median_ms: medianB, difference_ms: medianB - medianA,
                               interval_ms: [interval.lowerBound, interval.upperBound],
                               ratio: medianA > 0 ? medianB / medianA : nil, mann_whitney_u: test.u, z: test.z, p: test.p,
                               b_slower_share: test.shareFirstLarger)
    }
}
