/// Percentile bootstrap confidence intervals, seeded so a report says the same thing every
/// time it is made (`SplitMix64`). A statistic is recomputed on `resamples` samples drawn
/// with replacement; the interval is the middle `level` of those values, cut with the same
/// interpolation as `SampleStatistics.percentile` (numpy's default).
public struct Bootstrap: Sendable {
    public static let defaultResamples = 2000
    public static let defaultSeed: UInt64 = 1

    public let resamples: Int
    public let seed: UInt64
    /// The interval's coverage, 0.95 for a 95 % interval.
    public let level: Double

    public init(resamples: Int = Bootstrap.defaultResamples, seed: UInt64 = Bootstrap.defaultSeed, level: Double = 0.95) {
        self.resamples = max(1, resamples)
        self.seed = seed
        self.level = level
    }

    /// The interval of `statistic` over resamples; `statistic` draws its own resample from
    /// the generator it is given (one sample, two independent ones, or paired units).
    public func interval(_ statistic: (inout SplitMix64) -> Double) -> ClosedRange<Double> {
        var rng = SplitMix64(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        for _ in 0..<resamples { values.append(statistic(&rng)) }
        let s = SampleStatistics(values.filter { !$0.isNaN })
        let tail = (1 - level) / 2 * 100
        return s.percentile(tail)...s.percentile(100 - tail)
    }

    /// How many times each of `count` units is drawn in one resample of `count` draws.
    public static func multiplicities(_ count: Int, _ rng: inout SplitMix64) -> [Int] {
        var drawn = [Int](repeating: 0, count: count)
        guard count > 0 else { return drawn }
        for _ in 0..<count { drawn[Int.random(in: 0..<count, using: &rng)] += 1 }
        return drawn
    }

    /// The median (numpy's interpolation) of one resample of `sorted`, an ascending sample,
    /// found by walking the draw counts: O(n) per resample, no sorting.
    public static func resampledMedian(_ sorted: [Double], _ rng: inout SplitMix64) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let drawn = multiplicities(sorted.count, &rng)
        let n = sorted.count
        // The median sits between ranks (n-1)/2 rounded down and up (0-based).
        let lowRank = (n - 1) / 2, highRank = n / 2
        var seen = 0, low = Double.nan
        for (k, times) in drawn.enumerated() where times > 0 {
            seen += times
            if low.isNaN && seen > lowRank { low = sorted[k] }
            if seen > highRank { return (low + sorted[k]) / 2 }
        }
        return low
    }
}
