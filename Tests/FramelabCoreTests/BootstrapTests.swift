import FramelabCore
import Testing

@Suite struct BootstrapTests {
    private func sample(_ n: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in Double.random(in: 0..<10, using: &rng) + Double.random(in: 0..<10, using: &rng) }
    }

    @Test func resampledMedianIsTheMedianOfTheDrawnSample() {
        for n in [1, 2, 7, 10, 101] {
            let sorted = sample(n, seed: UInt64(n)).sorted()
            var walk = SplitMix64(seed: 9), explicit = SplitMix64(seed: 9)
            for _ in 0..<20 {
                let fast = Bootstrap.resampledMedian(sorted, &walk)
                let drawn = Bootstrap.multiplicities(n, &explicit)
                let values = zip(sorted, drawn).flatMap { Array(repeating: $0.0, count: $0.1) }
                #expect(fast == SampleStatistics(values).percentile(50))
            }
        }
    }

    @Test func multiplicitiesDrawAsManyAsThereAreUnits() {
        var rng = SplitMix64(seed: 4)
        let drawn = Bootstrap.multiplicities(50, &rng)
        #expect(drawn.count == 50 && drawn.reduce(0, +) == 50)
        #expect(drawn.filter { $0 == 0 }.count > 5)   // about 1/e of the units are left out
    }

    @Test func intervalContainsTheEstimateNarrowsWithMoreDataAndRepeats() {
        let boot = Bootstrap(resamples: 1000, seed: 3)
        var widths: [Double] = []
        for n in [20, 2000] {
            let sorted = sample(n, seed: 11).sorted()
            let median = SampleStatistics(sorted).percentile(50)
            let ci = boot.interval { Bootstrap.resampledMedian(sorted, &$0) }
            #expect(ci.contains(median))
            #expect(ci == boot.interval { Bootstrap.resampledMedian(sorted, &$0) })
            widths.append(ci.upperBound - ci.lowerBound)
        }
        // The median's standard error shrinks like 1/√n: 100x the data, about a tenth the width.
        #expect(widths[1] < widths[0] / 4)
    }

    @Test func aDifferenceOfTwoSamplesFromOneDistributionCoversZero() {
        let boot = Bootstrap(resamples: 1000, seed: 5)
        let a = sample(200, seed: 21).sorted(), b = sample(200, seed: 22).sorted()
        let ci = boot.interval { Bootstrap.resampledMedian(b, &$0) - Bootstrap.resampledMedian(a, &$0) }
        #expect(ci.contains(0))
        let shifted = b.map { $0 + 3 }
        let moved = boot.interval { Bootstrap.resampledMedian(shifted, &$0) - Bootstrap.resampledMedian(a, &$0) }
        #expect(moved.lowerBound > 0 && moved.contains(3 + SampleStatistics(b).percentile(50) - SampleStatistics(a).percentile(50)))
    }
}
