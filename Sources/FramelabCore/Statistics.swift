/// The frame budgets Framelab reports against: frame rates and their per-frame milliseconds.
public enum FrameBudget {
    /// Frame rates whose budgets every report shows (24, 30 and 60 fps).
    public static let rates: [Int] = [24, 30, 60]

    /// Milliseconds available per frame at `fps` (41.7, 33.3, 16.7).
    public static func milliseconds(fps: Int) -> Double { 1000 / Double(fps) }
}

/// Order statistics over a sample, computed once from a sorted copy.
public struct SampleStatistics: Sendable {
    public let sorted: [Double]

    public init<S: Sequence>(_ values: S) where S.Element == Double {
        sorted = values.sorted()
    }

    public var count: Int { sorted.count }
    public var max: Double { sorted.last ?? 0 }
    public var mean: Double { sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count) }

    /// The p-th percentile (0…100) with linear interpolation between closest ranks,
    /// numpy's default, so notebooks and reports agree. 0 for an empty sample.
    public func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Swift.max(0, Swift.min(1, p / 100)) * Double(sorted.count - 1)
        let lo = Int(rank.rounded(.down)), hi = Swift.min(lo + 1, sorted.count - 1)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - Double(lo))
    }

    /// Share (0…1) of values strictly above `limit`.
    public func shareAbove(_ limit: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        // First index with value > limit, by binary search.
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] > limit { hi = mid } else { lo = mid + 1 }
        }
        return Double(sorted.count - lo) / Double(sorted.count)
    }
}
