import FramelabCore

/// A per-channel curve on BGRA pixels as two tables indexed by byte pairs, so a pixel
/// takes two lookups instead of three:
/// - `low[b | g << 8]` is the pixel's new B and G (its low 16 bits),
/// - `high[r | a << 8]` its new R and the kept A, already shifted to bits 16…31.
///
/// A pixel is then one 32-bit load, two lookups OR-ed and one store: about 6 machine
/// instructions against 12 with three byte tables (which also need the index bytes
/// masked out and alpha kept by hand). x86 has no byte gather, so lookups stay scalar,
/// and these instructions compete with a fused matrix's vector work for the same
/// dispatch slots and load ports: fewer of them is what makes the fused loop fast.
///
/// The tables are 128 KB and 256 KB and live in L2, but a frame touches few entries:
/// with constant alpha `high` uses 256 of its entries, and camera images, whose B and G
/// move together, use a small band of `low`. Built once per kernel (about 0.3 ms).
final class PairCurveTables: Sendable {
    let low: [UInt16]
    let high: [UInt32]

    init(_ curves: ChannelCurves) {
        let b = curves.tables[0], g = curves.tables[1], r = curves.tables[2]
        var low = [UInt16](repeating: 0, count: 65_536), high = [UInt32](repeating: 0, count: 65_536)
        for second in 0..<256 {
            for first in 0..<256 {
                let i = first | second << 8
                low[i] = UInt16(b[first]) | UInt16(g[second]) << 8
                high[i] = UInt32(r[first]) << 16 | UInt32(second) << 24
            }
        }
        self.low = low
        self.high = high
    }

    /// Rows of a BGRA image through the curve (in place is fine).
    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        precondition(input.format == .bgra8, "pair tables are for BGRA")
        withTables { low, high in
            forEachRowPair(input, output, rows: rows) { s, d in
                lookUpPairs(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), from: 0, to: input.width, low, high)
            }
        }
    }

    /// The tables as pointers valid for `body`.
    func withTables<R>(_ body: (UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> R) -> R {
        low.withUnsafeBufferPointer { l in high.withUnsafeBufferPointer { h in body(l.baseAddress!, h.baseAddress!) } }
    }
}

/// Pixels start..<end of one BGRA row through pair tables, `s` to `d` (may be the same).
/// Indices are 16-bit fields of the pixel, so they are always in range.
@inline(__always)
func lookUpPairs(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, from start: Int, to end: Int,
                 _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) {
    var x = start
    while x < end {
        let v = (s + 4 &* x).loadUnaligned(as: UInt32.self)
        (d + 4 &* x).storeBytes(of: UInt32(low[Int(v & 0xFFFF)]) | high[Int(v &>> 16)], as: UInt32.self)
        x &+= 1
    }
}

/// Eight pixels in place through pair tables, unrolled (the fused loop's trailing lookups).
@inline(__always)
func lookUpPairsEight(_ p: UnsafeMutableRawPointer, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) {
    @inline(__always) func one(_ o: Int) {
        let v = (p + o).loadUnaligned(as: UInt32.self)
        (p + o).storeBytes(of: UInt32(low[Int(v & 0xFFFF)]) | high[Int(v &>> 16)], as: UInt32.self)
    }
    one(0); one(4); one(8); one(12); one(16); one(20); one(24); one(28)
}
