/// A radial gradient's rows mirror about its centre: rows y and 2c − 1 − y have the same
/// distance |y + 0.5 − c| when 2c is a whole number (the default centre, 0.5 of any height),
/// exactly, in Float as in Double. A row whose mirror was rendered earlier in the same call
/// is copied from it (a third of the cost of computing it: 1080p BGRA at avx2, Zen 3); only rows of
/// this call count, because a recipe runs its colour steps on a chunk's rows once the
/// generator's call for them returns, so rows from an earlier call may have changed.
struct MirrorRows {
    /// 2c − 1 when 2c is a whole number (and the rows are not too far out for Float).
    let sum: Int?
    let rows: Range<Int>

    init(centre: Float, rows: Range<Int>) {
        sum = Self.mirrorSum(centre: centre)
        self.rows = rows
    }

    /// 2c − 1 for a centre c on a half or whole pixel (2c whole), within ±2^21 so that Float
    /// holds every position near it exactly; nil for any other centre. Rows and columns
    /// mirror about it alike (`MirrorColumns`).
    static func mirrorSum(centre: Float) -> Int? {
        let twice = 2 * centre
        return twice == twice.rounded() && abs(twice) < 4_194_304 ? Int(twice) - 1 : nil
    }

    /// The row above `y` with the same values, if this call rendered it already.
    func partner(of y: Int) -> Int? {
        guard let sum else { return nil }
        let above = sum - y
        return above < y && above >= rows.lowerBound ? above : nil
    }
}

/// The rows of an operation's whole output that repeat earlier ones: row y in `copies`
/// holds row `sum − y`, which lies before `copies`. A recipe shares the other rows out
/// among its threads and copies these from their partners (`CompiledPass`): handed every
/// row, a thread's call computed rows whose partners another call had rendered.
public struct RowMirror: Equatable, Sendable {
    public let copies: Range<Int>
    public let sum: Int

    /// Rows mirrored about sum / 2 (`MirrorRows.mirrorSum`) in an image of `height` rows;
    /// nil when no row has a partner inside it.
    init?(sum: Int?, height: Int) {
        guard let sum, sum >= 1 else { return nil }
        let first = sum / 2 + 1, end = min(height, sum + 1)
        guard first < end else { return nil }
        (copies, self.sum) = (first..<end, sum)
    }

    /// The `index`-th of the rows computed (all but `copies`, in order): rows before
    /// `copies` as they are, the others past it.
    func computedRow(_ index: Int) -> Int { index < copies.lowerBound ? index : index + copies.count }
}

/// A radial gradient's columns mirror about its centre in the same way: columns x and
/// m − x (m = 2c − 1) hold the same pixel when 2c is a whole number, exactly (x + 0.5 − c
/// is computed exactly, and rounding is symmetric). Columns from about the centre to the
/// right edge are computed, those left of the centre whose mirror lies in the row are
/// copied from it, reversed, and any further left computed too: at the default centre half
/// of every row rendered is a copy.
struct MirrorColumns {
    /// Column ranges to compute (one or two, in order).
    let computed: [Range<Int>]
    /// Columns to copy, column x from column `sum − x` (which lies in `computed`).
    let copied: Range<Int>
    let sum: Int

    init(centre: Float, width: Int, enabled: Bool = true) {
        guard enabled, width > 0, let m = MirrorRows.mirrorSum(centre: centre) else {
            (computed, copied, sum) = ([0..<max(width, 0)], 0..<0, 0)
            return
        }
        // The first column at or right of the centre (its mirror is itself or to its left),
        // and the first whose mirror lies inside the row (m − x < width).
        let right = m < 0 ? 0 : min((m + 1) / 2, width)
        let left = max(0, m - width + 1)
        guard left < right else {
            (computed, copied, sum) = ([0..<width], 0..<0, 0)
            return
        }
        computed = (left > 0 ? [0..<left] : []) + [right..<width]
        (copied, sum) = (left..<right, m)
    }

    /// Copies the mirrored columns of one row of `channels` bytes a pixel from their partners.
    func copy(_ row: UnsafeMutablePointer<UInt8>, channels: Int) {
        guard !copied.isEmpty else { return }
        if channels == 4 {
            // Four pixels a step, their lanes reversed in the register (one shuffle): a
            // pixel at a time was nearly as slow as computing them.
            let p = UnsafeMutableRawPointer(row)
            var x = copied.lowerBound
            while x + 4 <= copied.upperBound {
                let v = p.loadUnaligned(fromByteOffset: 4 * (sum - x - 3), as: SIMD4<UInt32>.self)
                p.storeBytes(of: SIMD4(v[3], v[2], v[1], v[0]), toByteOffset: 4 * x, as: SIMD4<UInt32>.self)
                x += 4
            }
            while x < copied.upperBound {
                p.storeBytes(of: p.loadUnaligned(fromByteOffset: 4 * (sum - x), as: UInt32.self),
                             toByteOffset: 4 * x, as: UInt32.self)
                x += 1
            }
        } else {
            for x in copied {
                for c in 0..<channels { row[x * channels + c] = row[(sum - x) * channels + c] }
            }
        }
    }
}
