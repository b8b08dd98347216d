import FramelabCore
import Testing

@Suite struct MannWhitneyUTests {
    /// Worked by hand: A = 1 2 3 4, B = 3 5 6. Ranks of the pooled values 1 2 3 3 4 5 6 are
    /// 1 2 3.5 3.5 5 6 7 (the two 3s share 3.5), so A's rank sum is 11.5 and
    /// U_A = 11.5 − 4·5/2 = 1.5, U_B = 4·3 − 1.5 = 10.5. Mean 6; one tie of 2 values gives
    /// Σ(t³ − t) = 6, variance 4·3/12 · (8 − 6/(7·6)) = 7.857142857; z = (10.5 − 6 − 0.5)/√7.857
    /// = 1.427006; p = erfc(z/√2) = 0.153576 (scipy.stats.mannwhitneyu(..., method="asymptotic")
    /// prints statistic 1.5, pvalue 0.15357639654998376).
    @Test func smallSampleWithATieMatchesTheHandComputation() {
        let t = MannWhitneyU([1, 2, 3, 4], [3, 5, 6])
        #expect(t.u == 1.5)
        #expect(abs(t.z - -1.4270) < 1e-4)
        #expect(abs(t.p - 0.15357639654998376) < 1e-12)
        #expect(t.shareFirstLarger == 1.5 / 12)
        // Swapping the samples swaps U and the sign of z, not p.
        let swapped = MannWhitneyU([3, 5, 6], [1, 2, 3, 4])
        #expect(swapped.u == 10.5 && abs(swapped.z - 1.4270) < 1e-4 && swapped.p == t.p)
    }

    @Test func fullySeparatedSamplesGiveTheExtremeU() {
        // Every B above every A: U_A = 0, U_B = na·nb; no ties, variance 5·5·11/12.
        let t = MannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        #expect(t.u == 0 && t.shareFirstLarger == 0)
        let z = (25 - 12.5 - 0.5) / (25.0 * 11 / 12).squareRoot()
        #expect(abs(t.z + z) < 1e-12)
        #expect(t.p < 0.02 && t.p > 0.005)
    }

    @Test func identicalValuesGiveNoEvidence() {
        let t = MannWhitneyU([1, 1, 1], [1, 1])
        #expect(t.u == 3 && t.p == 1 && t.z == 0)
        #expect(MannWhitneyU([], [1, 2]).p == 1)
        // Equal medians and continuity correction: p capped at 1.
        #expect(MannWhitneyU([1, 2, 3], [1, 2, 3]).p == 1)
    }
}
