import FramelabCore
@testable import FramelabFilters
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    /// A fast case runs on in its turn until it has spent the round's time (bounded), a slow
    /// one only its share: the 1 ms cases get many samples, the 60 ms ones no more.
    @Test func sideBySideRunsFastCasesUntilTheRoundTimeIsSpent() throws {
        let timer = BenchTimer(warmup: 0, repeats: 2)
        let fast: () throws -> Void = {}, slow: () throws -> Void = { _ = usleep(3_000) }
        let timings = try timer.measureSideBySide([fast, slow], rounds: 2, roundMs: 2, maximumPerRound: 50)
        #expect(timings[0].runs == 100, "a no-op never spends 2 ms in 50 runs, so it stops at the bound each round")
        #expect(timings[1].runs == 2, "3 ms is over the round's 2 ms after the first run")
        let none = try timer.measureSideBySide([fast], rounds: 3)
        #expect(none.map(\.runs) == [3], "no round time: each round runs only its share of repeats (2 / 3 → 1)")
    }

    static func timing(_ ms: Double) -> BenchTimer.Timing { BenchTimer.Timing(minMs: ms, medianMs: ms, samplesMs: [ms]) }

    static func row(_ filter: String, _ path: String, _ ms: Double, threads: Int = 1) -> BenchResult {
        BenchResult(filter: filter, path: path, width: 1920, height: 1080, threads: threads, timing: timing(ms))
    }

    /// The side-by-side timings replace the tables' rows and memcpy, so the table and the
    /// goal lines quote one number per case.
    @Test func sideBySideTimesReplaceTheTableRows() {
        var report = BenchReport()
        report.isa = "avx2"
        report.sizes = ["1920x1080"]
        report.memcpy = ["1920x1080": Self.timing(1)]
        report.results = [Self.row("sepia", "simd", 2), Self.row("chain4", "recipe", 3)]
        let goal = "four-op recipe within 1.30x of one SIMD colour op (sepia)"
        #expect(report.goalChecks().first { $0.goal == goal }?.met == false)      // 1.5x from the tables
        report.goalTimings = [FilterBenchmark.goalKey("memcpy", ""): Self.timing(0.8),
                              FilterBenchmark.goalKey("sepia", "simd"): Self.timing(2),
                              FilterBenchmark.goalKey("chain4", "recipe"): Self.timing(2.5),
                              FilterBenchmark.goalKey(FilterBenchmark.memcpyInPiecesKey, ""): Self.timing(0.8),
                              FilterBenchmark.goalKey(FilterBenchmark.memcpyInPiecesKey, "", threads: 2): Self.timing(0.5),
                              FilterBenchmark.goalKey("chain4", "recipe", threads: 2, size: "1280x720"): Self.timing(1)]
        report.goalRounds = FilterBenchmark.goalRounds
        report.adoptSideBySide()
        #expect(report.memcpy["1920x1080"]?.minMs == 0.8)
        #expect(report.memcpyInPieces[2]?.minMs == 0.5)
        // The memory system's own two-thread gain is printed beside the thread goals, as information.
        let memory = report.goalLines().first { $0.goal.hasPrefix("memcpy at 1920x1080 in a recipe's row pieces with 2 threads") }
        #expect(memory?.met == nil && memory?.measured == "0.80 vs 0.50 ms = 1.60x", "\(memory?.measured ?? "")")
        #expect(!report.goals()[0].contains("sets no goals"))
        #expect(report.document.memcpy_in_pieces_ms_by_threads == ["1": 0.8, "2": 0.5])
        #expect(report.result("chain4", "recipe", "1920x1080")?.timing.minMs == 2.5)
        #expect(report.result("chain4", "recipe", "1920x1080")?.sideBySide == true)
        #expect(report.result("chain4", "recipe", "1280x720", threads: 2)?.timing.minMs == 1)
        let check = report.goalChecks().first { $0.goal == goal }
        #expect(check?.met == true)                                               // 1.25x side by side
        #expect(check?.measured.contains("2.50 vs 2.00 ms") == true, "\(check?.measured ?? "")")
        // The table quotes the same sepia time and ratio as the goal line.
        let text = report.text()
        #expect(text.contains("side by side in \(FilterBenchmark.goalRounds) alternating rounds"))
        let sepiaRow = text.split(separator: "\n").first { $0.hasPrefix("sepia") && $0.contains("simd") }
        #expect(sepiaRow?.contains("2.50x") == true && sepiaRow?.hasSuffix("*") == true, "\(sepiaRow ?? "")")
        #expect(report.goalChecks().first { $0.goal == "SIMD sepia within 2.50x of memcpy" }?.measured == "2.00 ms = 2.50x memcpy")
    }

    /// The memcpy in pieces copies every byte of the frame on one worker and on two, even
    /// with fewer rows than pieces.
    @Test func theCopyInPiecesCopiesTheWholeFrame() {
        for height in [1, 2, 17, 37] { for threads in [1, 2] {
            let frame = FilterBenchmark.testFrame(width: 61, height: height)
            let copy = Mat(format: frame.format, width: 61, height: height)
            FilterBenchmark.copyInPieces(frame, into: copy, threads: threads)
            let same = frame.withUnsafeBytes { a in copy.withUnsafeBytes { b in a.elementsEqual(b) } }
            #expect(same, "height \(height), \(threads) threads")
        } }
    }

    /// A ratio that misses its goal by less than the printed rounding gets a third decimal,
    /// so a line never reads "1.70x" next to "NOT met" for a 1.70x goal.
    @Test func goalRatiosNearTheGoalShowWhyTheyMissIt() {
        var report = BenchReport()
        report.isa = "avx2"
        report.memcpy = ["1920x1080": Self.timing(1)]
        report.results = [Self.row("gamma", "recipe", 1.6984), Self.row("gamma", "recipe", 1, threads: 2),
                          Self.row("sepia", "recipe", 1.72), Self.row("sepia", "recipe", 1, threads: 2),
                          Self.row("hue", "simd", 2.5012)]
        let lines = report.goalLines()
        let gamma = lines.first { $0.goal.hasPrefix("gamma (recipe) at 1920x1080") }
        #expect(gamma?.met == false && gamma?.measured.hasSuffix("= 1.698x") == true, "\(gamma?.measured ?? "")")
        let sepia = lines.first { $0.goal.hasPrefix("sepia (recipe) at 1920x1080") }
        #expect(sepia?.met == true && sepia?.measured.hasSuffix("= 1.72x") == true, "\(sepia?.measured ?? "")")
        let hue = lines.first { $0.goal == "SIMD hue within 2.50x of memcpy" }
        #expect(hue?.met == false && hue?.measured == "2.50 ms = 2.501x memcpy", "\(hue?.measured ?? "")")
    }

    /// The expected minimum over k runs is the mean, over every k-subset of the samples, of
    /// the subset's smallest: checked against the subsets themselves, with the edge cases.
    @Test func expectedMinimumIsTheMeanMinimumOfEverySubset() {
        let t = BenchTimer.Timing(minMs: 1, medianMs: 2.5, samplesMs: [3, 1, 4, 2])
        #expect(abs(t.expectedMinimum(overRuns: 2) - 10.0 / 6) < 1e-12)   // {1,·}×3, {2,3}, {2,4}, {3,4}
        #expect(abs(t.expectedMinimum(overRuns: 1) - 2.5) < 1e-12)        // one run: the mean
        for runs in [0, 4, 9] { #expect(t.expectedMinimum(overRuns: runs) == 1) }
        var rng = SplitMix64(seed: 11)
        let samples = (0..<9).map { _ in Double.random(in: 0.3...2, using: &rng) }
        let many = BenchTimer.Timing(minMs: samples.min()!, medianMs: 0, samplesMs: samples)
        for k in 1...9 {
            var sum = 0.0, count = 0
            for bits in 0..<(1 << 9) where bits.nonzeroBitCount == k {
                sum += (0..<9).filter { bits & (1 << $0) != 0 }.map { samples[$0] }.min()!
                count += 1
            }
            #expect(abs(many.expectedMinimum(overRuns: k) - sum / Double(count)) < 1e-12, "k = \(k)")
        }
    }

    /// A fast case timed more often does not get a luckier minimum for it: the goal lines
    /// and the table compare two minimums over the same number of runs.
    @Test func ratiosCompareMinimumsOverTheSameNumberOfRuns() {
        var report = BenchReport()
        report.isa = "avx2"
        report.sizes = ["1920x1080"]
        // memcpy: one lucky run in ten; sepia: two runs. Over two runs memcpy's expected
        // minimum is 0.4 · 2/10 + 1 · 8/10 = 0.88 ms, not 0.4.
        report.memcpy = ["1920x1080": BenchTimer.Timing(minMs: 0.4, medianMs: 1, samplesMs: [0.4] + Array(repeating: 1, count: 9))]
        report.results = [BenchResult(filter: "sepia", path: "simd", width: 1920, height: 1080, threads: 1,
                                      timing: BenchTimer.Timing(minMs: 2, medianMs: 2, samplesMs: [2, 2]))]
        let line = report.goalLines().first { $0.goal == "SIMD sepia within 2.50x of memcpy" }
        #expect(line?.met == true && line?.measured == "2.00 ms = 2.27x memcpy", "\(line?.measured ?? "")")
        let row = report.text().split(separator: "\n").first { $0.hasPrefix("sepia") }
        #expect(row?.contains("2.27x") == true, "\(row ?? "")")
        #expect(abs((report.document.results.first?.vs_memcpy ?? 0) - 2 / 0.88) < 1e-9)
    }

    /// Each level checks its own goals; the baseline level prints its numbers without a verdict.
    @Test func goalsDependOnTheKernelLevel() throws {
        var report = BenchReport()
        report.memcpy = ["1920x1080": Self.timing(1)]
        report.results = [Self.row("sepia", "simd", 2), Self.row("gamma", "simd", 1.9), Self.row("vibrance", "simd", 5),
                          Self.row("gaussianBlur", "simd", 60), Self.row("gaussianBlur", "opencv", 40),
                          Self.row("gamma", "recipe", 2), Self.row("gamma", "recipe", 1, threads: 2),
                          Self.row("gaussianBlur", "recipe", 60), Self.row("gaussianBlur", "recipe", 60, threads: 2)]
        report.isa = "avx512"
        var lines = report.goalLines()
        #expect(lines.first { $0.goal == "SIMD sepia within 1.80x of memcpy" }?.met == false)
        #expect(lines.first { $0.goal == "SIMD gamma within 2.00x of memcpy" }?.met == true)
        #expect(lines.first { $0.goal == "SIMD vibrance within 4.00x of memcpy" }?.met == false)
        #expect(lines.first { $0.goal == "SIMD gaussianBlur no slower than OpenCV" }?.met == false)
        #expect(lines.first { $0.goal == "gamma (recipe) at 1920x1080 with 2 threads at least 1.70x faster than 1" }?.met == true)
        // Two threads are a goal for per-pixel operations only.
        #expect(!lines.contains { $0.goal.hasPrefix("gaussianBlur (recipe)") })
        report.isa = "avx2"
        lines = report.goalLines()
        #expect(lines.first { $0.goal == "SIMD sepia within 2.50x of memcpy" }?.met == true)
        #expect(!lines.contains { $0.goal.hasPrefix("SIMD gamma within") })
        report.isa = "baseline"
        lines = report.goalLines()
        #expect(!lines.isEmpty && lines.allSatisfy { $0.met == nil })
        #expect(report.goalChecks().isEmpty)
        #expect(report.goals().contains { $0.contains("[info] SIMD sepia") })
        #expect(try FramelabJSON.encode(report.document, pretty: false).contains("\"met\":null"))
    }
}
