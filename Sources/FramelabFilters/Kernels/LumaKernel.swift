import FramelabCore

/// Luma Y = 0.299 R + 0.587 G + 0.114 B into gray8.
enum Luma {
    /// The scalar reference, in Double.
    static func applyScalar(_ input: Mat, into output: Mat) {
        let step = input.format.bytesPerPixel
        forEachRowPair(input, output) { s, d in
            for x in 0..<input.width {
                let p = x * step
                d[x] = clampToByte(0.114 * Double(s[p]) + 0.587 * Double(s[p + 1]) + 0.299 * Double(s[p + 2]))
            }
        }
    }

    // The weights ×2^14, as OpenCV's cvtColor uses them (they sum to exactly 2^14).
    static let wb: Int32 = 1868, wg: Int32 = 9617, wr: Int32 = 4899

    /// SIMD: eight BGRA pixels per step, fixed point, narrowed to eight bytes.
    static func applySIMD(_ input: Mat, into output: Mat, rows: Range<Int>) {
        typealias V = SIMD8<Int32>
        let step = input.format.bytesPerPixel
        let mask = V(repeating: 0xFF), round = V(repeating: 1 << 13)
        let vb = V(repeating: wb), vg = V(repeating: wg), vr = V(repeating: wr)
        forEachRowPair(input, output, rows: rows) { s, d in
            var x = 0
            if step == 4 {
                let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
                while x + 8 <= input.width {
                    let v = (src + 4 * x).loadUnaligned(as: V.self)
                    let y = ((v & mask) &* vb &+ ((v &>> 8) & mask) &* vg &+ ((v &>> 16) & mask) &* vr &+ round) &>> 14
                    (dst + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: y), as: SIMD8<UInt8>.self)
                    x += 8
                }
            }
            while x < input.width {
                let p = x * step
                d[x] = UInt8(truncatingIfNeeded: (Int32(s[p]) * wb + Int32(s[p + 1]) * wg + Int32(s[p + 2]) * wr + (1 << 13)) >> 14)
                x += 1
            }
        }
    }
}
