import FramelabCore
@testable import FramelabFilters
import Testing

/// The side-by-side timing the speed goals use: the order it runs things in, and that the
/// goal checks take its numbers over the tables' when a run made them.
@Suite struct BenchTimerTests {
    @Test func sideBySideWarmsEachThenAlternatesInRounds() throws {
        var log: [Int] = []
        let timer = BenchTimer(warmup: 1, repeats: 4)
        let timings = try timer.measureSideBySide([{ log.append(0) }, { log.append(1) }, { log.append(2) }], rounds: 2)
        #expect(log == [0, 1, 2] + [0, 0, 1, 1, 2, 2] + [0, 0, 1, 1, 2, 2])
        #expect(timings.map(\.runs) == [4, 4, 4])
        for t in timings { #expect(t.minMs >= 0 && t.minMs <= t.medianMs) }
    }

    @Test func goalChecksPreferTheSideBySideTimes() {
        func timing(_ ms: Double) -> BenchTimer.Timing { BenchTimer.Timing(minMs: ms, medianMs: ms, samplesMs: [ms]) }
        var report = BenchReport()
        report.results = [BenchResult(filter: "sepia", path: "simd", width: 1920, height: 1080, threads: 1, timing: timing(2)),
                          BenchResult(filter: "chain4", path: "recipe", width: 1920, height: 1080, threads: 1, timing: timing(3))]
        let goal = "four-op recipe within 1.3x of one SIMD colour op (sepia)"
        #expect(report.goalChecks().first { $0.goal == goal }?.met == false)      // 1.5x from the tables
        report.goalTimings = [FilterBenchmark.goalKey("sepia", "simd"): timing(2),
                              FilterBenchmark.goalKey("chain4", "recipe"): timing(2.5)]
        report.goalRounds = FilterBenchmark.goalRounds
        let check = report.goalChecks().first { $0.goal == goal }
        #expect(check?.met == true)                                               // 1.25x side by side
        #expect(check?.measured.contains("2.50 vs 2.00 ms") == true, "\(check?.measured ?? "")")
        #expect(report.goals()[0].contains("side by side in \(FilterBenchmark.goalRounds) alternating rounds"))
    }
}
