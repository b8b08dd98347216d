import FramelabCore

/// One measured filter on one path at one size.
public struct BenchResult: Sendable {
    public let filter: String
    public let path: String
    public let width: Int
    public let height: Int
    public let threads: Int
    public let timing: BenchTimer.Timing
    /// Timed side by side with the goal cases (`FilterBenchmark.timeGoalsSideBySide`).
    public var sideBySide = false

    public var size: String { "\(width)x\(height)" }
}

/// Everything one `bench filters` run measured, with ratios computed from results taken
/// side by side in the same process.
public struct BenchReport: Sendable {
    /// The kernel level the SIMD and recipe paths ran at (`KernelLevel`).
    public var isa = KernelLevel.current.rawValue
    /// The name of the level's kernel table the SIMD and recipe paths ran (`KernelTable.name`:
    /// the level's, or its variant for this CPU, such as "avx2+vnni" or "avx512+vbmi+vnni").
    public var kernels = KernelLevel.current.table?.name ?? KernelLevel.current.rawValue
    /// The frames' pixel format ("bgra8" or "bgr8"); the speed goals are set for bgra8.
    public var format = PixelFormat.bgra8.name
    /// The CPU it ran on, as the caller names it (`Configuration.cpuModel`): ratios from
    /// different machines are not comparable, so the report says which one it is.
    public var cpuModel = "unknown"
    /// memcpy of one frame, per size ("WxH").
    public var memcpy: [String: BenchTimer.Timing] = [:]
    /// memcpy of the 1920x1080 frame in the row pieces a per-pixel recipe cuts it into, by
    /// number of workers (1 and 2): the gain a second thread gets from the memory system alone.
    public var memcpyInPieces: [Int: BenchTimer.Timing] = [:]
    /// Per-filter results (`filter` is a built-in name) and the chain results
    /// (`filter` is "chain4", path "eager-simd", "recipe", "eager-scalar", "eager-opencv").
    public var results: [BenchResult] = []
    /// Sizes in the order measured.
    public var sizes: [String] = []
    /// Paths or filters that could not be measured, with the reason.
    public var skipped: [String] = []
    /// The cases the speed goals compare, re-timed side by side at 1920x1080
    /// (`FilterBenchmark.goalKey`), and in how many alternating rounds.
    public var goalTimings: [String: BenchTimer.Timing] = [:]
    public var goalRounds = 0
    /// A stop was asked for (a signal) before everything was measured: the report holds
    /// what was, and no speed goal is judged.
    public var interrupted = false

    public init() {}

    /// Puts the side-by-side goal timings (`goalTimings`) into the rows and the memcpy of
    /// their size, replacing what the tables measured alone (or adding the row), so the
    /// table and the goal lines quote one measurement per case.
    public mutating func adoptSideBySide() {
        for (key, timing) in goalTimings.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let dims = parts.count == 4 ? parts[3].split(separator: "x").compactMap { Int($0) } : []
            guard dims.count == 2, let threads = Int(parts[2]) else { continue }
            if parts[0] == "memcpy" {
                memcpy[parts[3]] = timing
                continue
            }
            if parts[0] == FilterBenchmark.memcpyInPiecesKey {
                memcpyInPieces[threads] = timing
                continue
            }
            var row = BenchResult(filter: parts[0], path: parts[1], width: dims[0], height: dims[1], threads: threads, timing: timing)
            row.sideBySide = true
            if let i = results.firstIndex(where: { $0.filter == row.filter && $0.path == row.path && $0.size == row.size
                                                   && $0.threads == threads }) {
                results[i] = row
            } else {
                results.append(row)
            }
        }
    }

    func result(_ filter: String, _ path: String, _ size: String, threads: Int? = nil) -> BenchResult? {
        results.first { $0.filter == filter && $0.path == path && $0.size == size && (threads == nil || $0.threads == threads) }
    }
}
