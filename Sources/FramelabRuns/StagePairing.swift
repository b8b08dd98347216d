/// Which stage of run A is compared with which stage of run B. Stages pair by name
/// (unique names: a repeated stage is `gray #2`), then, among those left, by element — the
/// name before the first `:` of the stage as written (`opencv-haar:min_size=80` is
/// `opencv-haar`) — when exactly one stage on each side has it. So a run with a parameter
/// changed still pairs with the run before the change.
public struct StagePairing: Sendable, Equatable {
    public struct Pair: Sendable, Equatable {
        public let a: Int, b: Int
    }

    public let pairs: [Pair]
    /// Stage positions with no partner.
    public let onlyA: [Int], onlyB: [Int]

    public init(a: [String], b: [String]) {
        var pairs: [Pair] = [], usedB = Set<Int>()
        var leftA: [Int] = []
        let positionInB = Dictionary(b.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (i, name) in a.enumerated() {
            if let j = positionInB[name], !usedB.contains(j) {
                pairs.append(Pair(a: i, b: j))
                usedB.insert(j)
            } else {
                leftA.append(i)
            }
        }
        let leftB = b.indices.filter { !usedB.contains($0) }
        func byElement(_ positions: [Int], _ names: [String]) -> [String: [Int]] {
            Dictionary(grouping: positions) { Self.element(names[$0]) }
        }
        let elementsA = byElement(leftA, a), elementsB = byElement(leftB, b)
        var pairedA = Set<Int>()
        for i in leftA {
            let element = Self.element(a[i])
            if let onlyOneA = elementsA[element], onlyOneA.count == 1, let candidates = elementsB[element], candidates.count == 1 {
                pairs.append(Pair(a: i, b: candidates[0]))
                pairedA.insert(i)
                usedB.insert(candidates[0])
            }
        }
        self.pairs = pairs.sorted { $0.a < $1.a }
        onlyA = leftA.filter { !pairedA.contains($0) }
        onlyB = b.indices.filter { !usedB.contains($0) }
    }

    /// The element a stage runs: its name before the first `:` (a saved prediction set,
    /// `predictions:NAME`, keeps its whole name), without a repeat suffix (` #2`).
    static func element(_ stage: String) -> String {
        let base = stage.split(separator: " #").first.map(String.init) ?? stage
        if base.hasPrefix("predictions:") { return base }
        return base.split(separator: ":", maxSplits: 1).first.map(String.init) ?? base
    }
}
