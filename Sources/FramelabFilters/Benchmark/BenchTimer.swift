import FramelabCore

/// Times a piece of work the way the project's benchmarks must: warm-up runs first, then
/// repeated runs, reporting the minimum and the median in milliseconds.
public struct BenchTimer: Sendable {
    public var warmup: Int
    public var repeats: Int
    /// Stop repeating once this many seconds were spent (after at least `minimumRuns`), so
    /// slow reference paths do not dominate a run.
    public var timeLimit: Double
    public var minimumRuns: Int

    public init(warmup: Int = 2, repeats: Int = 15, timeLimit: Double = 3, minimumRuns: Int = 3) {
        self.warmup = warmup
        self.repeats = repeats
        self.timeLimit = timeLimit
        self.minimumRuns = minimumRuns
    }

    public struct Timing: Sendable, Equatable {
        public let minMs: Double
        public let medianMs: Double
        /// Every timed run in milliseconds, in the order measured (warm-up excluded).
        public let samplesMs: [Double]
        public var runs: Int { samplesMs.count }
    }

    public func measure(_ body: () throws -> Void) rethrows -> Timing {
        let start = MonotonicClock.now()
        for _ in 0..<warmup {
            try body()
            // A very slow body (a scalar reference on 4K) needs no second warm-up.
            if Double(MonotonicClock.now() - start) / 1e9 > timeLimit / 2 { break }
        }
        var samples: [Double] = []
        let begin = MonotonicClock.now()
        while samples.count < repeats {
            let t0 = MonotonicClock.now()
            try body()
            samples.append(Double(MonotonicClock.now() - t0) / 1e6)
            if samples.count >= minimumRuns && Double(MonotonicClock.now() - begin) / 1e9 > timeLimit { break }
        }
        return Self.timing(samples)
    }

    /// Times several bodies side by side: each is warmed up, then `rounds` times in turn
    /// each runs its share of `repeats`. Drift in the machine's speed (other tenants,
    /// clock changes) then falls on all of them alike, so ratios between them are fair;
    /// timed one after the other, two cases can land in different minutes.
    ///
    /// A body that takes less than `roundMs / share` keeps running in its turn until it has
    /// spent `roundMs` (at most `maximumPerRound` runs): a 1 ms case then gets a few hundred
    /// samples instead of `repeats`, so one unlucky run on a shared machine does not decide
    /// its minimum, while slow cases (a 60 ms blur) still run only their share.
    public func measureSideBySide(_ bodies: [() throws -> Void], rounds: Int, roundMs: Double = 0,
                                  maximumPerRound: Int = 100) throws -> [Timing] {
        for body in bodies { for _ in 0..<warmup { try body() } }
        let perRound = max(1, (repeats + rounds - 1) / rounds)
        var samples = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<rounds {
            for (i, body) in bodies.enumerated() {
                var spent = 0.0, runs = 0
                while runs < perRound || (spent < roundMs && runs < max(perRound, maximumPerRound)) {
                    let t0 = MonotonicClock.now()
                    try body()
                    let ms = Double(MonotonicClock.now() - t0) / 1e6
                    samples[i].append(ms)
                    spent += ms
                    runs += 1
                }
            }
        }
        return samples.map(Self.timing)
    }

    private static func timing(_ samples: [Double]) -> Timing {
        let stats = SampleStatistics(samples)
        return Timing(minMs: stats.sorted[0], medianMs: stats.percentile(50), samplesMs: samples)
    }
}

extension BenchTimer.Timing {
    /// The minimum to expect from `runs` of these runs picked at random: the mean, over
    /// every subset of that size, of its smallest sample (the i-th smallest of n samples,
    /// from 0, is a subset's minimum in C(n − 1 − i, runs − 1) of the C(n, runs) subsets).
    /// The minimum of all runs when `runs` is not fewer than there are.
    public func expectedMinimum(overRuns runs: Int) -> Double {
        let n = samplesMs.count
        guard runs > 0, runs < n else { return minMs }
        let sorted = samplesMs.sorted()
        var share = Double(runs) / Double(n), sum = 0.0
        for i in 0...(n - runs) {
            sum += sorted[i] * share
            if i < n - runs { share *= Double(n - runs - i) / Double(n - 1 - i) }
        }
        return sum
    }

    /// Two cases' minimums over the same number of runs, for their ratio: the case with
    /// more runs gives its `expectedMinimum` over the other's count. A fast case gets more
    /// runs in a round of fixed time (memcpy about three times a 1 ms op's), and more runs
    /// of the same speed find a smaller minimum on a shared machine: 2–7% for memcpy of a
    /// 1080p frame, 500 runs against 143, on Zen 3 (2026-11-28), which tilted every ratio
    /// against memcpy the op's way and every two-thread ratio the goal's way.
    public static func sameRunMinimums(_ a: Self, _ b: Self) -> (Double, Double) {
        let runs = Swift.min(a.runs, b.runs)
        return (a.expectedMinimum(overRuns: runs), b.expectedMinimum(overRuns: runs))
    }

    /// `a`'s minimum over `b`'s, both over the same number of runs (`sameRunMinimums`).
    public static func ratio(_ a: Self, _ b: Self) -> Double {
        let (x, y) = sameRunMinimums(a, b)
        return x / y
    }
}
