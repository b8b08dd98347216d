import Testing
@testable import FramelabDetection

/// Levels scanned every second pixel keep their integral rows split, even entries first
/// (`SplitRows`): the tables must hold the same entries, only elsewhere, and the cascade's
/// split offsets must reach the same corners.
@Suite struct SplitRowsTests {
    static func pixels(_ width: Int, _ height: Int) -> [UInt8] {
        (0..<width * height).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ $0 / width &* 29 &+ 11) }
    }

    @Test(arguments: [(13, 9), (6, 17), (1, 1), (32, 4), (40, 31)])
    func splitTablesHoldTheSameEntries(size: (Int, Int)) {
        let (width, height) = size
        let image = Self.pixels(width, height)
        var dense = IntegralImages(), split = IntegralImages()
        for tables in [0, 1] {
            var t = IntegralImages()
            t.reserve(maxWidth: width, maxHeight: height, padding: 17, tilted: true)
            image.withUnsafeBufferPointer { t.compute($0.baseAddress!, width: width, height: height, split: tables == 1) }
            if tables == 0 { dense = t } else { split = t }
        }
        for y in 0...height {
            for x in 0...width {
                for (tilted, squared) in [(false, false), (true, false), (false, true)] {
                    #expect(dense.entry(x: x, y: y, tilted: tilted, squared: squared)
                            == split.entry(x: x, y: y, tilted: tilted, squared: squared, split: true),
                            "\(width)x\(height) (\(x), \(y)) tilted \(tilted) squared \(squared)")
                }
            }
        }
        // The upright corner really is the sum of everything above and left of it.
        let total = image.reduce(0) { $0 + UInt32($1) }
        #expect(split.entry(x: width, y: height, split: true) == total)
    }

    /// For a window at an even column x0, the entry of column x0 + dx sits at
    /// x0 / 2 + position(dx): one set of offsets serves every window of a split row, for
    /// tilted corners left of the window (dx < 0) too.
    @Test func offsetsFromAWindowAreTheSameForEveryEvenWindow() {
        for stride in [9, 10, 57] {
            let rows = SplitRows(stride: stride)
            #expect(Set((0..<stride).map(rows.position)) == Set(0..<stride), "stride \(stride): not a permutation")
            for x0 in Swift.stride(from: 0, through: stride - 1, by: 2) {
                for dx in -x0..<(stride - x0) {
                    #expect(rows.position(x0 + dx) == x0 / 2 + rows.position(dx), "stride \(stride) x0 \(x0) dx \(dx)")
                }
            }
        }
    }
}
