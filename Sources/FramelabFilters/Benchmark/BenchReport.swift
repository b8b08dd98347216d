import FramelabCore

/// One measured filter on one path at one size.
public struct BenchResult: Sendable {
    public let filter: String
    public let path: String
    public let width: Int
    public let height: Int
    public let threads: Int
    public let timing: BenchTimer.Timing

    public var size: String { "\(width)x\(height)" }
}

/// Everything one `bench filters` run measured, with ratios computed from results taken
/// side by side in the same process.
public struct BenchReport: Sendable {
    /// The kernel level the SIMD and recipe paths ran at (`KernelLevel`).
    public var isa = KernelLevel.current.rawValue
    /// memcpy of one BGRA frame, per size ("WxH").
    public var memcpy: [String: BenchTimer.Timing] = [:]
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

    public init() {}

    func result(_ filter: String, _ path: String, _ size: String, threads: Int? = nil) -> BenchResult? {
        results.first { $0.filter == filter && $0.path == path && $0.size == size && (threads == nil || $0.threads == threads) }
    }
}
