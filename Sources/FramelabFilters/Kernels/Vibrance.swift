import FramelabCore

/// Vibrance: saturation raised (or lowered) most where colour is weakest, as CIVibrance.
///
/// Definition, on 0…255 values: s = (max − min) / 255, y = luma, k = 1 + amount·(1 − s),
/// out = y + (c − y)·k. Gray pixels stay gray; saturated pixels barely move.
struct Vibrance: Sendable {
    let amount: Double

    func applyScalar(_ input: Mat, into output: Mat) {
        let step = input.format.bytesPerPixel
        forEachRowPair(input, output) { s, d in
            for x in 0..<input.width {
                let p = x * step
                let b = Double(s[p]), g = Double(s[p + 1]), r = Double(s[p + 2])
                let sat = (max(r, g, b) - min(r, g, b)) / 255
                let y = 0.299 * r + 0.587 * g + 0.114 * b
                let k = 1 + amount * (1 - sat)
                d[p] = clampToByte(y + (b - y) * k)
                d[p + 1] = clampToByte(y + (g - y) * k)
                d[p + 2] = clampToByte(y + (r - y) * k)
                if step == 4 { d[p + 3] = s[p + 3] }
            }
        }
    }

    /// SIMD: luma at 6 fractional bits, k at 12 (its slope kept at 20 bits, so the
    /// quantisation error stays below 0.02 of a level); the products stay inside Int32.
    func applySIMD(_ input: Mat, into output: Mat, rows: Range<Int>) {
        typealias V = SIMD8<Int32>
        let step = input.format.bytesPerPixel
        let kAmount = Int32((amount * 4096 * 256 / 255).rounded())
        let mask = V(repeating: 0xFF), alpha = V(repeating: -16_777_216), hi = V(repeating: 255)
        let vb = V(repeating: Luma.wb), vg = V(repeating: Luma.wg), vr = V(repeating: Luma.wr)
        let va = V(repeating: kAmount), one = V(repeating: 4096), full = V(repeating: 255), half8 = V(repeating: 128)
        let round6 = V(repeating: 128), round18 = V(repeating: 1 << 17)
        forEachRowPair(input, output, rows: rows) { s, d in
            var x = 0
            if step == 4 {
                let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
                while x + 8 <= input.width {
                    let v = (src + 4 * x).loadUnaligned(as: V.self)
                    let b = v & mask, g = (v &>> 8) & mask, r = (v &>> 16) & mask
                    let y6 = (b &* vb &+ g &* vg &+ r &* vr &+ round6) &>> 8
                    let spread = pointwiseMax(pointwiseMax(r, g), b) &- pointwiseMin(pointwiseMin(r, g), b)
                    let k = one &+ ((va &* (full &- spread) &+ half8) &>> 8)
                    let base = y6 &* one &+ round18
                    func channel(_ c: V) -> V {
                        pointwiseMin(pointwiseMax((base &+ ((c &<< 6) &- y6) &* k) &>> 18, .zero), hi)
                    }
                    (dst + 4 * x).storeBytes(of: channel(b) | (channel(g) &<< 8) | (channel(r) &<< 16) | (v & alpha), as: V.self)
                    x += 8
                }
            }
            while x < input.width {
                let p = x * step
                let b = Int32(s[p]), g = Int32(s[p + 1]), r = Int32(s[p + 2])
                let y6 = (b * Luma.wb + g * Luma.wg + r * Luma.wr + 128) >> 8
                let k = 4096 + ((kAmount * (255 - (max(r, g, b) - min(r, g, b))) + 128) >> 8)
                for (i, c) in [b, g, r].enumerated() {
                    d[p + i] = UInt8(clamping: (y6 * 4096 + (1 << 17) + ((c << 6) - y6) * k) >> 18)
                }
                if step == 4 { d[p + 3] = s[p + 3] }
                x += 1
            }
        }
    }
}
