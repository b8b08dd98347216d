import FramelabCore

extension BenchReport {
    static func ms(_ v: Double) -> String { v >= 100 ? String(Int(v.rounded())) : fixedDigits(v, digits: v >= 10 ? 1 : 2) }
    static func ratio(_ v: Double?) -> String { v.map { fixedDigits($0, digits: 2) + "x" } ?? "—" }

    /// A ratio in a goal line: three decimals when two would print the goal itself (1.698
    /// prints as 1.70x yet misses a 1.70x goal; 1.698x says why).
    static func ratio(_ v: Double, goal: Double) -> String {
        let two = fixedDigits(v, digits: 2)
        return (two == fixedDigits(goal, digits: 2) && v != goal ? fixedDigits(v, digits: 3) : two) + "x"
    }

    static func fixedDigits(_ v: Double, digits: Int) -> String {
        var s = String((v * pow10(digits)).rounded() / pow10(digits))
        if let dot = s.firstIndex(of: ".") {
            let decimals = s.distance(from: dot, to: s.endIndex) - 1
            if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
        }
        return s
    }

    static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }


    /// Ratios of one result's minimum against memcpy, OpenCV and scalar at the same size,
    /// each pair's minimums over the same number of runs (`BenchTimer.Timing.ratio`).
    func ratios(_ r: BenchResult) -> (memcpy: Double?, openCV: Double?, scalar: Double?) {
        let m = memcpy[r.size].map { BenchTimer.Timing.ratio(r.timing, $0) }
        let cv = result(r.filter, "opencv", r.size).map { BenchTimer.Timing.ratio(r.timing, $0.timing) }
        let sc = result(r.filter, "scalar", r.size).map { BenchTimer.Timing.ratio(r.timing, $0.timing) }
        return (m, cv, sc)
    }

    /// The human-readable report: per-filter table, chain table, budget table, goals.
    public func text() -> String {
        var lines: [String] = []
        let header = [column("filter", 16), column("path", 8), column("size", 10), column("thr", 3, left: true),
                      column("min ms", 9, left: true), column("median", 9, left: true), column("/memcpy", 9, left: true),
                      column("/opencv", 9, left: true), column("/scalar", 9, left: true)].joined(separator: " ")
        lines.append("kernel level: \(isa) (table \(kernels); SIMD and recipe paths; FRAMELAB_ISA or --isa to choose); frames: \(format); "
                     + "CPU: \(cpuModel)")
        for size in sizes {
            lines.append("memcpy of one \(format) frame at \(size): min \(Self.ms(memcpy[size]!.minMs)) ms, median \(Self.ms(memcpy[size]!.medianMs)) ms")
        }
        lines.append("")
        lines.append(header)
        for r in results where r.filter != "chain4" {
            let q = ratios(r)
            lines.append([column(r.filter, 16), column(r.path, 8), column(r.size, 10), column(String(r.threads), 3, left: true),
                          column(Self.ms(r.timing.minMs), 9, left: true), column(Self.ms(r.timing.medianMs), 9, left: true),
                          column(Self.ratio(q.memcpy), 9, left: true),
                          column(r.path == "opencv" ? "" : Self.ratio(q.openCV), 9, left: true),
                          column(r.path == "scalar" ? "" : Self.ratio(q.scalar), 9, left: true)].joined(separator: " ")
                         + (r.sideBySide ? " *" : ""))
        }
        if results.contains(where: \.sideBySide) {
            lines.append("* timed side by side with memcpy and the other goal cases (\(goalRounds) alternating rounds, "
                         + "each case at least \(Int(FilterBenchmark.goalRoundMs)) ms a round); "
                         + "the goal lines quote these rows. A ratio compares two minimums over the same number of runs: "
                         + "the case with more runs gives the minimum expected of as many as the other had")
        }
        if !skipped.isEmpty {
            lines.append("")
            lines.append("not measured:")
            lines += skipped.map { "  " + $0 }
        }
        lines.append("")
        lines.append("chain of four colour operations: " + FilterBenchmark.chain.joined(separator: " → "))
        lines.append([column("path", 14), column("size", 10), column("thr", 3, left: true), column("min ms", 9, left: true),
                      column("median", 9, left: true), column("/memcpy", 9, left: true)].joined(separator: " "))
        for r in results where r.filter == "chain4" {
            lines.append([column(r.path, 14), column(r.size, 10), column(String(r.threads), 3, left: true),
                          column(Self.ms(r.timing.minMs), 9, left: true), column(Self.ms(r.timing.medianMs), 9, left: true),
                          column(Self.ratio(ratios(r).memcpy), 9, left: true)].joined(separator: " ")
                         + (r.sideBySide ? " *" : ""))
        }
        lines.append("")
        lines += budgetTable()
        lines.append("")
        lines += goals()
        return lines.joined(separator: "\n")
    }

    /// For each size and chain path: does the median fit 24, 30 and 60 fps?
    func budgetTable() -> [String] {
        var lines = ["frame budget for the chain of four (median ms; fits 24 / 30 / 60 fps = 41.7 / 33.3 / 16.7 ms):"]
        lines.append([column("size", 10), column("path", 14), column("thr", 3, left: true), column("median", 9, left: true),
                      "  24fps 30fps 60fps"].joined(separator: " "))
        for r in results where r.filter == "chain4" {
            let fits = FrameBudget.rates.map { r.timing.medianMs <= FrameBudget.milliseconds(fps: $0) ? "  yes " : "  no  " }
            lines.append([column(r.size, 10), column(r.path, 14), column(String(r.threads), 3, left: true),
                          column(Self.ms(r.timing.medianMs), 9, left: true), " " + fits.joined()].joined(separator: " "))
        }
        return lines
    }
}

/// `s` padded with spaces to `n` characters (on the left for numbers).
private func column(_ s: String, _ n: Int, left: Bool = false) -> String {
    let gap = String(repeating: " ", count: max(0, n - s.count))
    return left ? gap + s : s + gap
}
