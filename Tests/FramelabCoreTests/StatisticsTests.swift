import FramelabCore
import Testing

@Suite struct StatisticsTests {
    @Test func percentilesInterpolateLikeNumpy() {
        // numpy.percentile([1, 2, 3, 4], [50, 95, 99]) == [2.5, 3.85, 3.97]
        let s = SampleStatistics([4, 1, 3, 2])
        #expect(s.percentile(50) == 2.5)
        #expect(abs(s.percentile(95) - 3.85) < 1e-12)
        #expect(abs(s.percentile(99) - 3.97) < 1e-12)
        #expect(s.max == 4 && s.mean == 2.5)
    }

    @Test func shareAboveBudgetCountsStrictlyGreater() {
        let s = SampleStatistics([10, 16.6, 20, 40, 50])
        #expect(s.shareAbove(FrameBudget.milliseconds(fps: 60)) == 0.6)
        #expect(s.shareAbove(FrameBudget.milliseconds(fps: 24)) == 0.2)
        #expect(SampleStatistics([]).shareAbove(1) == 0)
    }

    @Test func budgetsAreTheThreeFrameRates() {
        #expect(FrameBudget.rates == [24, 30, 60])
        #expect(abs(FrameBudget.milliseconds(fps: 24) - 41.6667) < 1e-3)
    }

    @Test func monotonicClockAdvances() {
        let a = MonotonicClock.now()
        MonotonicClock.sleep(until: a + 2_000_000)
        #expect(MonotonicClock.now() - a >= 2_000_000)
    }
}
