import FramelabCore
import FramelabKernels

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
///
/// The curve's three byte tables (B, G, R, 768 bytes) ride along: levels with a byte
/// permute (AVX-512 VBMI) look up in registers instead (`KernelTable.curve`). bgr8 rows
/// use the same tables (`applyThreeByte`).
final class PairCurveTables: Sendable {
    let low: [UInt16]
    let high: [UInt32]
    let bytes: [UInt8]

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
        bytes = curves.byteTables
    }

    /// Rows of a BGRA image through the curve with the level's `curve` (in place is fine).
    func apply(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable = KernelLevel.currentTable) {
        precondition(input.format == .bgra8, "pair tables are for BGRA")
        withTables { bytes, low, high in
            forEachRowPair(input, output, rows: rows) { s, d in
                let done = kernels.curve(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), input.width, bytes, low, high)
                kernels.pairLookup(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), done, input.width, low, high)
            }
        }
    }

    /// Rows of a bgr8 image through the curve with the level's `curveThreeByte` (VBMI's
    /// byte permutes, the avx2 ring of pair-table lookups), the rest of a row by the byte
    /// tables (in place is fine).
    func applyThreeByte(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable = KernelLevel.currentTable) {
        precondition(input.format == .bgr8, "applyThreeByte is for bgr8")
        withTables { bytes, low, high in
            forEachRowPair(input, output, rows: rows) { s, d in
                let done = kernels.curveThreeByte(s, d, input.width, bytes, low, high)
                lookUpRow(s + 3 * done, d + 3 * done, width: input.width - done, step: 3, bytes, bytes + 256, bytes + 512)
            }
        }
    }

    /// The byte and pair tables as pointers valid for `body`.
    func withTables<R>(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> R) -> R {
        bytes.withUnsafeBufferPointer { b in
            low.withUnsafeBufferPointer { l in high.withUnsafeBufferPointer { h in body(b.baseAddress!, l.baseAddress!, h.baseAddress!) } }
        }
    }
}
