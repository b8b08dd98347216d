import FramelabCore

/// `bench filters --isa all`: the level-dependent cases (each built-in on the SIMD path,
/// the chain eagerly and as a recipe) at every kernel level, timed side by side in
/// alternating rounds with memcpy, so one phase of a shared machine falls on every level.
public struct LevelComparison: Sendable {
    public struct Row: Sendable {
        public let filter: String
        public let path: String
        /// One timing per level, in `levels` order.
        public let timings: [BenchTimer.Timing]
    }

    public let size: String
    /// The frames' pixel format ("bgra8" or "bgr8").
    public let format: String
    /// Level names, lowest first.
    public let levels: [String]
    /// Each level's kernel table, in `levels` order (`BenchReport.kernels`): the column heads.
    public let kernels: [String]
    public var memcpy = BenchTimer.Timing(minMs: .nan, medianMs: .nan, samplesMs: [])
    public var rows: [Row] = []
    public var rounds = 0

    init(size: String, format: String, levels: [String], kernels: [String]) {
        self.size = size
        self.format = format
        self.levels = levels
        self.kernels = kernels
    }

    /// A table: one row per case, min / median ms and the minimum's ratio to memcpy per level
    /// (the two minimums over the same number of runs: `BenchTimer.Timing.ratio`).
    public func text() -> String {
        var lines = ["kernel levels side by side at \(size) \(format) (min / median ms, min vs memcpy; one thread, \(rounds) alternating rounds of at least \(Int(FilterBenchmark.goalRoundMs)) ms a case):"]
        lines.append("memcpy of one \(format) frame: min \(BenchReport.ms(memcpy.minMs)) ms, median \(BenchReport.ms(memcpy.medianMs)) ms")
        func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
            let gap = String(repeating: " ", count: max(0, n - s.count))
            return left ? gap + s : s + gap
        }
        lines.append(pad("filter", 16) + " " + pad("path", 11) + kernels.map { pad($0, 24, left: true) }.joined())
        for row in rows {
            let cells = row.timings.map { t in
                "\(BenchReport.ms(t.minMs)) / \(BenchReport.ms(t.medianMs)) = \(BenchReport.ratio(BenchTimer.Timing.ratio(t, memcpy)))"
            }
            lines.append(pad(row.filter, 16) + " " + pad(row.path, 11) + cells.map { pad($0, 24, left: true) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    /// `{"size", "format", "levels", "kernels", "memcpy_ms", "rows": [{filter, path, "by_level": {level: {min_ms,
    /// median_ms, vs_memcpy}}}]}`; a time not measured is null.
    public struct Document: Encodable, Sendable {
        public struct Cell: Encodable, Sendable {
            @NullWhenAbsent var min_ms: Double?
            @NullWhenAbsent var median_ms: Double?
            @NullWhenAbsent var vs_memcpy: Double?
        }
        public struct Row: Encodable, Sendable {
            let filter: String, path: String
            let by_level: [String: Cell]
        }
        let size: String
        let format: String
        let levels: [String]
        let kernels: [String]
        @NullWhenAbsent var memcpy_ms: Double?
        let rows: [Row]
    }

    public var document: Document {
        Document(size: size, format: format, levels: levels, kernels: kernels, memcpy_ms: memcpy.minMs.finiteOrNil, rows: rows.map { row in
            var cells: [String: Document.Cell] = [:]
            for (level, t) in zip(levels, row.timings) {
                cells[level] = Document.Cell(min_ms: t.minMs.finiteOrNil, median_ms: t.medianMs.finiteOrNil,
                                             vs_memcpy: BenchTimer.Timing.ratio(t, memcpy).finiteOrNil)
            }
            return Document.Row(filter: row.filter, path: row.path, by_level: cells)
        })
    }
}
