import FramelabCore
import FramelabElements

/// Issue 16's speed goals, per kernel level, checked on the report's own 1920x1080 rows:
/// the cases the goals compare are timed side by side and those timings replace the
/// table's (`FilterBenchmark.timeGoalsSideBySide`), so a case has one ratio in a report.
extension BenchReport {
    /// The goal lines: what each compares, the measurement, and whether it is met (nil:
    /// printed for information, no goal at this level).
    public struct GoalLine: Sendable {
        public let goal: String
        public let measured: String
        public let met: Bool?
    }

    /// Per-level limits (nil: no goal at that level).
    struct LevelGoals {
        /// Colour-matrix ops (sepia, colorMatrix, colorControls, hue) against memcpy.
        var matrixVsMemcpy: Double?
        /// Curve ops (gamma, exposure, toneCurve, highlightShadow) against memcpy.
        var curveVsMemcpy: Double?
        /// Whether the level-independent goals (recipe, OpenCV, memcpy, threads) are checked.
        var checksCommonGoals: Bool

        /// The goals of level `isa` on frames of `format`: issue 16 sets them for bgra8
        /// frames, so on other formats every line is measured only.
        static func of(_ isa: String, format: String) -> LevelGoals {
            guard format == PixelFormat.bgra8.name else {
                return LevelGoals(matrixVsMemcpy: nil, curveVsMemcpy: nil, checksCommonGoals: false)
            }
            switch isa {
            case KernelLevel.avx512.rawValue: return LevelGoals(matrixVsMemcpy: 1.8, curveVsMemcpy: 2, checksCommonGoals: true)
            case KernelLevel.avx2.rawValue: return LevelGoals(matrixVsMemcpy: 2.5, curveVsMemcpy: nil, checksCommonGoals: true)
            default: return LevelGoals(matrixVsMemcpy: nil, curveVsMemcpy: nil, checksCommonGoals: false)
            }
        }
    }

    static let matrixOps = ["sepia", "colorMatrix", "colorControls", "hue"]
    static let curveOps = ["gamma", "exposure", "toneCurve", "highlightShadow"]
    /// Goal: no more than 4x memcpy.
    static let memcpyBoundOps = ["vibrance", "radialGradient"]

    /// Every goal line this report can fill, in the order printed. A line compares two
    /// cases' minimums over the same number of runs (`BenchTimer.Timing.sameRunMinimums`),
    /// and prints those.
    public func goalLines() -> [GoalLine] {
        let size = "1920x1080", small = "1280x720"
        let limits = LevelGoals.of(isa, format: format)
        func timing(_ filter: String, _ path: String, threads: Int = 1, at s: String = size) -> BenchTimer.Timing? {
            result(filter, path, s, threads: threads)?.timing
        }
        var lines: [GoalLine] = []
        func add(_ goal: String, _ measured: String, _ met: Bool, checked: Bool) {
            lines.append(GoalLine(goal: goal, measured: measured, met: checked ? met : nil))
        }
        /// "a vs b ms = a/b" with the two minimums over the same number of runs, and a/b.
        func versus(_ a: BenchTimer.Timing, _ b: BenchTimer.Timing, goal: Double) -> (text: String, ratio: Double) {
            let (x, y) = BenchTimer.Timing.sameRunMinimums(a, b)
            return ("\(Self.ms(x)) vs \(Self.ms(y)) ms = \(Self.ratio(x / y, goal: goal))", x / y)
        }
        let common = limits.checksCommonGoals
        if let m = memcpy[size] {
            func againstMemcpy(_ name: String, limit: Double, checked: Bool) {
                guard let t = timing(name, "simd") else { return }
                let (s, c) = BenchTimer.Timing.sameRunMinimums(t, m)
                add("SIMD \(name) within \(Self.ratio(limit)) of memcpy", "\(Self.ms(s)) ms = \(Self.ratio(s / c, goal: limit)) memcpy",
                    s / c <= limit, checked: checked)
            }
            for name in Self.matrixOps { againstMemcpy(name, limit: limits.matrixVsMemcpy ?? 2.5, checked: limits.matrixVsMemcpy != nil) }
            if let limit = limits.curveVsMemcpy {
                for name in Self.curveOps { againstMemcpy(name, limit: limit, checked: true) }
            }
            for name in Self.memcpyBoundOps { againstMemcpy(name, limit: 4, checked: common) }
        }
        if let fused = timing("chain4", "recipe") {
            if let single = timing("sepia", "simd") {
                let v = versus(fused, single, goal: 1.3)
                add("four-op recipe within 1.30x of one SIMD colour op (sepia)", v.text, v.ratio <= 1.3, checked: common)
            }
            if let eager = timing("chain4", "eager-simd") {
                let v = versus(eager, fused, goal: 3)
                add("four-op recipe at least 3x faster than eager SIMD", v.text, v.ratio >= 3, checked: common)
            }
        }
        // Every vector path against its OpenCV reference (the filters measured on both).
        for r in results where r.path == "simd" && r.size == size && r.filter != "chain4" {
            guard let cv = timing(r.filter, "opencv") else { continue }
            let v = versus(r.timing, cv, goal: 1)
            add("SIMD \(r.filter) no slower than OpenCV", v.text, v.ratio <= 1, checked: common)
        }
        // The enlarging resize (720p to 1080p; the table's resize row shrinks 1080p to 720p).
        let up = FilterBenchmark.resizeUp, upSize = "\(up.width)x\(up.height)"
        if let s = timing(up.name, "simd", at: upSize), let cv = timing(up.name, "opencv", at: upSize) {
            let v = versus(s, cv, goal: 1)
            add("SIMD \(up.name) (\(up.spec), \(upSize) in) no slower than OpenCV", v.text, v.ratio <= 1, checked: common)
        }
        // What a second thread gets from the memory system alone, for the lines below.
        if let one = memcpyInPieces[1], let two = memcpyInPieces[2] {
            let (x, y) = BenchTimer.Timing.sameRunMinimums(one, two)
            lines.append(GoalLine(goal: "memcpy at \(size) in a recipe's row pieces with 2 threads against 1 (the memory system's own gain; no goal)",
                                  measured: "\(Self.ms(x)) vs \(Self.ms(y)) ms = \(Self.ratio(x / y))", met: nil))
        }
        // Two threads against one: every per-pixel op and the chain at 1080p, the chain at 720p.
        for r in results where r.path == "recipe" && r.threads == 1 && (r.size == size || (r.size == small && r.filter == "chain4")) {
            guard r.filter == "chain4" || FilterRegistry.builtIns.isPerPixel(r.filter),
                  let two = timing(r.filter, "recipe", threads: 2, at: r.size) else { continue }
            let v = versus(r.timing, two, goal: 1.7)
            let what = r.filter == "chain4" ? "four-op recipe" : "\(r.filter) (recipe)"
            add("\(what) at \(r.size) with 2 threads at least 1.70x faster than 1", v.text, v.ratio >= 1.7, checked: common)
        }
        return lines
    }

    /// The goals this level has, checked (`goalLines` without the information-only lines).
    public func goalChecks() -> [(goal: String, measured: String, met: Bool)] {
        guard !interrupted else { return [] }
        return goalLines().compactMap { line in line.met.map { (line.goal, line.measured, $0) } }
    }

    func goals() -> [String] {
        if interrupted {
            return ["speed goals: not judged: the benchmark was stopped (a signal) before everything was measured; "
                    + "the tables hold what was"]
        }
        let how = goalRounds > 0 ? "; the compared cases timed side by side in \(goalRounds) alternating rounds of at least \(Int(FilterBenchmark.goalRoundMs)) ms a case, as in the tables" : ""
        let lines = goalLines()
        let note = format != PixelFormat.bgra8.name ? " (issue 16 sets its goals for bgra8 frames: measured only on \(format))"
            : !LevelGoals.of(isa, format: format).checksCommonGoals ? " (issue 16 sets no goals at the \(isa) level: measured only)" : ""
        return ["speed goals at kernel level \(isa) (table \(kernels); one thread unless stated, 1920x1080, min times, a ratio's two over the same number of runs\(how))\(note):"]
            + lines.map { "  [\($0.met.map { $0 ? "met" : "NOT met" } ?? "info")] \($0.goal): \($0.measured)" }
    }
}

extension FilterRegistry {
    /// True for a built-in whose operation is per pixel (with default parameters).
    func isPerPixel(_ name: String) -> Bool {
        guard let made = try? self[name]?.makeOperation(ElementSpec(name: name)) else { return false }
        if case .perPixel = made.fusion { return true }
        return false
    }
}
