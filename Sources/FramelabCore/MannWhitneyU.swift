#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Mann–Whitney U test of two independent samples (the Wilcoxon rank-sum test): do
/// values of one tend to be larger than values of the other? Two-sided, with the normal
/// approximation, ties given their average rank and the variance corrected for them, and a
/// continuity correction of 0.5 — what `scipy.stats.mannwhitneyu(a, b,
/// method="asymptotic")` computes. Fine for the sample sizes runs have (tens of frames and
/// up); for a handful of values an exact test would be better.
public struct MannWhitneyU: Sendable, Equatable {
    /// U of the first sample: pairs (a, b) with a > b, ties counted half.
    public let u: Double
    /// The standardised statistic (continuity-corrected; 0 when every value is equal).
    public let z: Double
    /// Two-sided p-value, in 0…1 (1 when every value is equal or a sample is empty).
    public let p: Double
    /// U / (na · nb): the share of pairs in which the first sample's value is the larger
    /// (ties half); 0.5 means neither tends to be larger.
    public let shareFirstLarger: Double

    public init(_ a: [Double], _ b: [Double]) {
        let na = Double(a.count), nb = Double(b.count), n = na + nb
        guard !a.isEmpty, !b.isEmpty else {
            u = 0; z = 0; p = 1; shareFirstLarger = 0.5
            return
        }
        // Rank everything together; a run of equal values shares the mean of its ranks.
        let pooled = (a.map { ($0, true) } + b.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var rankSumA = 0.0, tieTerm = 0.0, i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let rank = Double(i + j) / 2 + 1, t = Double(j - i + 1)
            for k in i...j where pooled[k].1 { rankSumA += rank }
            tieTerm += t * t * t - t
            i = j + 1
        }
        u = rankSumA - na * (na + 1) / 2
        shareFirstLarger = u / (na * nb)
        let mean = na * nb / 2
        let variance = na * nb / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else {
            z = 0; p = 1
            return
        }
        // The larger of the two U's, less the continuity correction, as scipy does.
        let larger = max(u, na * nb - u)
        let zValue = (larger - mean - 0.5) / variance.squareRoot()
        z = u >= mean ? zValue : -zValue
        p = min(1, erfc(zValue / 2.0.squareRoot()))
    }
}
