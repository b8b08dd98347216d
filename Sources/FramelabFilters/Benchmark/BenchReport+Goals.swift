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

        static func of(_ isa: String) -> LevelGoals {
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

    /// Every goal line this report can fill, in the order printed.
    public func goalLines() -> [GoalLine] {
        let size = "1920x1080", small = "1280x720"
        let limits = LevelGoals.of(isa)
        func time(_ filter: String, _ path: String, threads: Int = 1, at s: String = size) -> Double? {
            result(filter, path, s, threads: threads)?.timing.minMs
        }
        var lines: [GoalLine] = []
        func add(_ goal: String, _ measured: String, _ met: Bool, checked: Bool) {
            lines.append(GoalLine(goal: goal, measured: measured, met: checked ? met : nil))
        }
        let common = limits.checksCommonGoals
        if let m = memcpy[size]?.minMs {
            for name in Self.matrixOps {
                guard let s = time(name, "simd") else { continue }
                let limit = limits.matrixVsMemcpy ?? 2.5
                add("SIMD \(name) within \(Self.ratio(limit)) of memcpy", "\(Self.ms(s)) ms = \(Self.ratio(s / m, goal: limit)) memcpy",
                    s / m <= limit, checked: limits.matrixVsMemcpy != nil)
            }
            if let limit = limits.curveVsMemcpy {
                for name in Self.curveOps {
                    guard let s = time(name, "simd") else { continue }
                    add("SIMD \(name) within \(Self.ratio(limit)) of memcpy", "\(Self.ms(s)) ms = \(Self.ratio(s / m, goal: limit)) memcpy",
                        s / m <= limit, checked: true)
                }
            }
            for name in Self.memcpyBoundOps {
                guard let s = time(name, "simd") else { continue }
                add("SIMD \(name) within 4.00x of memcpy", "\(Self.ms(s)) ms = \(Self.ratio(s / m, goal: 4)) memcpy", s / m <= 4,
                    checked: common)
            }
        }
        if let fused = time("chain4", "recipe") {
            if let single = time("sepia", "simd") {
                let r = fused / single
                add("four-op recipe within 1.30x of one SIMD colour op (sepia)",
                    "\(Self.ms(fused)) vs \(Self.ms(single)) ms = \(Self.ratio(r, goal: 1.3))", r <= 1.3, checked: common)
            }
            if let eager = time("chain4", "eager-simd") {
                let r = eager / fused
                add("four-op recipe at least 3x faster than eager SIMD",
                    "\(Self.ms(eager)) vs \(Self.ms(fused)) ms = \(Self.ratio(r, goal: 3))", r >= 3, checked: common)
            }
        }
        // Every vector path against its OpenCV reference (the filters measured on both).
        for r in results where r.path == "simd" && r.size == size && r.filter != "chain4" {
            guard let cv = time(r.filter, "opencv") else { continue }
            let s = r.timing.minMs
            add("SIMD \(r.filter) no slower than OpenCV", "\(Self.ms(s)) vs \(Self.ms(cv)) ms = \(Self.ratio(s / cv, goal: 1))",
                s <= cv, checked: common)
        }
        // The enlarging resize (720p to 1080p; the table's resize row shrinks 1080p to 720p).
        let up = FilterBenchmark.resizeUp, upSize = "\(up.width)x\(up.height)"
        if let s = time(up.name, "simd", at: upSize), let cv = time(up.name, "opencv", at: upSize) {
            add("SIMD \(up.name) (\(up.spec), \(upSize) in) no slower than OpenCV",
                "\(Self.ms(s)) vs \(Self.ms(cv)) ms = \(Self.ratio(s / cv, goal: 1))", s <= cv, checked: common)
        }
        // What a second thread gets from the memory system alone, for the lines below.
        if let one = memcpyInPieces[1]?.minMs, let two = memcpyInPieces[2]?.minMs {
            lines.append(GoalLine(goal: "memcpy at \(size) in a recipe's row pieces with 2 threads against 1 (the memory system's own gain; no goal)",
                                  measured: "\(Self.ms(one)) vs \(Self.ms(two)) ms = \(Self.ratio(one / two))", met: nil))
        }
        // Two threads against one: every per-pixel op and the chain at 1080p, the chain at 720p.
        for r in results where r.path == "recipe" && r.threads == 1 && (r.size == size || (r.size == small && r.filter == "chain4")) {
            guard r.filter == "chain4" || FilterRegistry.builtIns.isPerPixel(r.filter),
                  let two = time(r.filter, "recipe", threads: 2, at: r.size) else { continue }
            let q = r.timing.minMs / two
            let what = r.filter == "chain4" ? "four-op recipe" : "\(r.filter) (recipe)"
            add("\(what) at \(r.size) with 2 threads at least 1.70x faster than 1",
                "\(Self.ms(r.timing.minMs)) vs \(Self.ms(two)) ms = \(Self.ratio(q, goal: 1.7))", q >= 1.7, checked: common)
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
        let note = !LevelGoals.of(isa).checksCommonGoals ? " (issue 16 sets no goals at the \(isa) level: measured only)" : ""
        return ["speed goals at kernel level \(isa) (one thread unless stated, 1920x1080, min times\(how))\(note):"]
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
