/// Integer rectangles as cascades produce them.
public struct IntRect: Sendable, Equatable, Hashable {
    public var x, y, width, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// Merges overlapping raw windows the way OpenCV's `groupRectangles` does, so boxes
/// match `CascadeClassifier`'s: windows whose four edges all lie within
/// `eps * (min widths + min heights) / 2` of each other fall in one class (transitively);
/// a class with at most `minNeighbours` windows is dropped; the rest become their
/// mean rectangle; a box lying inside a bigger one (with `eps` slack) is dropped when
/// that one has more than max(3, its own) windows, or it has fewer than 3.
public enum RectangleGrouping {
    public static let defaultEps = 0.2

    /// The grouped boxes and, for each, the number of windows merged into it.
    public static func group(_ rects: [IntRect], minNeighbours: Int, eps: Double = defaultEps)
        -> [(rect: IntRect, neighbours: Int)] {
        guard minNeighbours > 0, !rects.isEmpty else { return rects.map { ($0, 1) } }
        let labels = partition(rects, eps: eps)
        let classCount = (labels.max() ?? -1) + 1
        var sums = [(x: Int, y: Int, w: Int, h: Int)](repeating: (0, 0, 0, 0), count: classCount)
        var counts = [Int](repeating: 0, count: classCount)
        for (r, c) in zip(rects, labels) {
            sums[c].x += r.x; sums[c].y += r.y; sums[c].w += r.width; sums[c].h += r.height
            counts[c] += 1
        }
        // The mean in single precision, rounded half to even, as OpenCV computes it.
        let means: [IntRect] = (0..<classCount).map { c in
            let s = 1 / Float(counts[c])
            func avg(_ v: Int) -> Int { Int((Float(v) * s).rounded(.toNearestOrEven)) }
            return IntRect(x: avg(sums[c].x), y: avg(sums[c].y), width: avg(sums[c].w), height: avg(sums[c].h))
        }
        var out: [(rect: IntRect, neighbours: Int)] = []
        for i in 0..<classCount where counts[i] > minNeighbours {
            let r1 = means[i], n1 = counts[i]
            var inside = false
            for j in 0..<classCount where j != i && counts[j] > minNeighbours {
                let r2 = means[j], n2 = counts[j]
                let dx = Int((Double(r2.width) * eps).rounded(.toNearestOrEven))
                let dy = Int((Double(r2.height) * eps).rounded(.toNearestOrEven))
                if r1.x >= r2.x - dx && r1.y >= r2.y - dy && r1.x + r1.width <= r2.x + r2.width + dx
                    && r1.y + r1.height <= r2.y + r2.height + dy && (n2 > max(3, n1) || n1 < 3) {
                    inside = true
                    break
                }
            }
            if !inside { out.append((r1, n1)) }
        }
        return out
    }

    /// Whether two rectangles are "similar" (OpenCV's SimilarRects predicate).
    static func similar(_ a: IntRect, _ b: IntRect, eps: Double) -> Bool {
        let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
        return Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
            && Double(abs(a.x + a.width - b.x - b.width)) <= delta
            && Double(abs(a.y + a.height - b.y - b.height)) <= delta
    }

    /// Equivalence classes under `similar`, numbered by first appearance (union-find).
    static func partition(_ rects: [IntRect], eps: Double) -> [Int] {
        var parent = Array(rects.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in rects.indices {
            for j in (i + 1)..<rects.count where similar(rects[i], rects[j], eps: eps) {
                let a = root(i), b = root(j)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var number: [Int: Int] = [:]
        return rects.indices.map { i in
            let r = root(i)
            if let n = number[r] { return n }
            number[r] = number.count
            return number[r]!
        }
    }
}
