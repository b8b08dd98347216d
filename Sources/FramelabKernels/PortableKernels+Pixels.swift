/// BT.601 luma weights ×2^14, as OpenCV's cvtColor uses them (they sum to exactly 2^14).
public enum LumaWeights {
    public static let b: Int32 = 1868, g: Int32 = 9617, r: Int32 = 4899
}

extension PortableKernels {
    /// Pair-table lookups: one 32-bit load, two lookups OR-ed, one store per pixel. Indices
    /// are 16-bit fields of the pixel, so they are always in range.
    @inlinable @inline(__always)
    public static func pairLookup(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ start: Int, _ end: Int,
                                  _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) {
        var x = start
        while x < end {
            let v = (src + 4 &* x).loadUnaligned(as: UInt32.self)
            (dst + 4 &* x).storeBytes(of: UInt32(low[Int(v & 0xFFFF)]) | high[Int(v &>> 16)], as: UInt32.self)
            x &+= 1
        }
    }

    /// A whole BGRA row through the pair tables (x86 has no byte gather before AVX-512 VBMI:
    /// two scalar lookups a pixel); returns `width`.
    @inlinable @inline(__always)
    public static func curve(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int, _ bytes: UnsafePointer<UInt8>,
                             _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        pairLookup(src, dst, 0, width, low, high)
        return width
    }

    /// Eight pixels in place through pair tables, unrolled (a fused loop's trailing lookups).
    /// Each index is its own 16-bit load, not a 32-bit load split by a shift: five
    /// instructions a pixel instead of six, which is what counts in a fused loop that keeps
    /// a core's dispatch slots full (Xeon family 6 model 207 at avx2: four-op recipe
    /// 1.29–1.37 → 1.24–1.30 ms). The plain curve loop (`pairLookup`) gained nothing from it.
    @inlinable @inline(__always)
    public static func pairLookupEight(_ p: UnsafeMutableRawPointer, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) {
        @inline(__always) func one(_ o: Int) {
            let l = p.loadUnaligned(fromByteOffset: o, as: UInt16.self), h = p.loadUnaligned(fromByteOffset: o &+ 2, as: UInt16.self)
            (p + o).storeBytes(of: UInt32(low[Int(l)]) | high[Int(h)], as: UInt32.self)
        }
        one(0); one(4); one(8); one(12); one(16); one(20); one(24); one(28)
    }

    /// Vibrance's k before its shift, less amount·spread: 255·amount + 128, so that
    /// k = 4096 + ((start − amount·spread) >> 8) is 4096 + ((amount·(255 − spread) + 128) >> 8).
    @inlinable @inline(__always)
    public static func vibranceStart(_ amount: Int32) -> Int32 { 255 &* amount &+ 128 }

    /// Eight BGRA pixels per step, fixed point, narrowed to eight bytes.
    @inlinable @inline(__always)
    public static func luma(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int) -> Int {
        let mask = I(repeating: 0xFF), round = I(repeating: 1 << 13)
        let vb = I(repeating: LumaWeights.b), vg = I(repeating: LumaWeights.g), vr = I(repeating: LumaWeights.r)
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let y = ((v & mask) &* vb &+ ((v &>> 8) & mask) &* vg &+ ((v &>> 16) & mask) &* vr &+ round) &>> 14
            (dst + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: y), as: SIMD8<UInt8>.self)
            x &+= 8
        }
        return x
    }

    /// Vibrance: luma at 6 fractional bits, k at 12 (its slope kept at 20 bits, so the
    /// quantisation error stays below 0.02 of a level); the products stay inside Int32.
    /// Per channel (y6·4096 + 2^17 + (64c − y6)·k) >> 18, the definition's y + (c − y)·k,
    /// computed as (c·64k + Y) >> 18 with Y = y6·(4096 − k) + 2^17 once a pixel: the same
    /// integer (expand the product), with one multiply and two adds a channel fewer. With
    /// |amount| ≤ 4112 (amount −1…1), k lies in 0…8192, so c·64k < 2^27 and |Y| < 2^27.
    @inlinable @inline(__always)
    public static func vibrance(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        let mask = I(repeating: 0xFF), alpha = I(repeating: -16_777_216), hi = I(repeating: 255)
        let vb = I(repeating: LumaWeights.b), vg = I(repeating: LumaWeights.g), vr = I(repeating: LumaWeights.r)
        let va = I(repeating: amount), one = I(repeating: 4096), start = I(repeating: vibranceStart(amount))
        let round6 = I(repeating: 128), round18 = I(repeating: 1 << 17)
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let b = v & mask, g = (v &>> 8) & mask, r = (v &>> 16) & mask
            let y6 = (b &* vb &+ g &* vg &+ r &* vr &+ round6) &>> 8
            let spread = lanewiseMax(lanewiseMax(r, g), b) &- lanewiseMin(lanewiseMin(r, g), b)
            let k = one &+ ((start &- va &* spread) &>> 8)
            let k64 = k &<< 6, y = y6 &* (one &- k) &+ round18
            @inline(__always) func channel(_ c: I) -> I {
                lanewiseMin(lanewiseMax((c &* k64 &+ y) &>> 18, .zero), hi)
            }
            (dst + 4 &* x).storeBytes(of: channel(b) | (channel(g) &<< 8) | (channel(r) &<< 16) | (v & alpha), as: I.self)
            x &+= 8
        }
        return x
    }

    /// One row of blend-with-mask, (f·m + b·(255 − m) + 128 + its high byte) >> 8 per
    /// sample with the mask one byte a pixel: BGRA eight pixels a step in 16-bit lanes
    /// (`blendBGRA`), bgr8 through it 64 pixels at a time (`blendThreeByte`, all but the
    /// last pixel, widened and narrowed by the level's `widen` and `narrow`), gray8 eight
    /// samples a step in 32-bit lanes; other channel counts are left to the caller. Returns
    /// the pixels done (a multiple of 8).
    @inlinable @inline(__always)
    public static func blend(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ m: UnsafePointer<UInt8>,
                             _ d: UnsafeMutablePointer<UInt8>, _ width: Int, _ channels: Int,
                             widen: ThreeByteWidening = scalarWidening,
                             narrow: ThreeByteNarrowing = scalarNarrowing) -> Int {
        switch channels {
        case 4: return blendBGRA(f, b, m, d, width)
        case 3: return blendThreeByte(f, b, m, d, width, widen: widen, narrow: narrow)
        case 1: return blendSamples(f, b, m, d, width)
        default: return 0
        }
    }

    /// Eight samples at a time in 32-bit lanes, each with its own weight.
    @inlinable @inline(__always)
    static func blendSamples(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ w: UnsafePointer<UInt8>,
                             _ d: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        let full = I(repeating: 255), half = I(repeating: 128)
        var i = 0
        while i &+ 8 <= n {
            let fv = I(truncatingIfNeeded: UnsafeRawPointer(f + i).loadUnaligned(as: SIMD8<UInt8>.self))
            let bv = I(truncatingIfNeeded: UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<UInt8>.self))
            let wv = I(truncatingIfNeeded: UnsafeRawPointer(w + i).loadUnaligned(as: SIMD8<UInt8>.self))
            let v = fv &* wv &+ bv &* (full &- wv) &+ half
            let q = (v &+ (v &>> 8)) &>> 8
            UnsafeMutableRawPointer(d + i).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: q), as: SIMD8<UInt8>.self)
            i &+= 8
        }
        return i
    }

    /// Blend-with-mask of eight BGRA pixels a step in 16-bit lanes (`eachHalf`), the
    /// pixel's mask byte spread to both halves. Nothing overflows 16 bits:
    /// f·m + b·(255 − m) ≤ 255·255, plus 128 and the high byte ≤ 65407, and the quotient is
    /// at most 255, so no clamp. Before, a row spread the mask to every channel and blended
    /// one sample per 32-bit lane: 10.2 ms at 1080p on Zen 3 (avx2).
    @inlinable @inline(__always)
    static func blendBGRA(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ m: UnsafePointer<UInt8>,
                          _ d: UnsafeMutablePointer<UInt8>, _ width: Int) -> Int {
        let round = ByteHalves(repeating: 128), full = ByteHalves(repeating: 255)
        var x = 0
        while x &+ 8 <= width {
            let fv = UnsafeRawPointer(f + 4 &* x).loadUnaligned(as: EightPixels.self)
            let bv = UnsafeRawPointer(b + 4 &* x).loadUnaligned(as: EightPixels.self)
            let weight = spreadToHalves(EightPixels(truncatingIfNeeded: UnsafeRawPointer(m + x).loadUnaligned(as: SIMD8<UInt8>.self)))
            let keep = full &- weight
            let mixed = eachHalf(fv, bv) { fc, bc in divideBy255(fc &* weight &+ bc &* keep &+ round) }
            UnsafeMutableRawPointer(d + 4 &* x).storeBytes(of: mixed, as: EightPixels.self)
            x &+= 8
        }
        return x
    }

    /// Fixed-point source-over: keep = 255 − alpha; b·keep/255 by the exact
    /// (v + 128 + ((v + 128) >> 8)) >> 8 division, clamped to 255 (a top that is not truly
    /// premultiplied can exceed it). BGRA bottoms take `sourceOverBGRA`'s eight pixels a step,
    /// bgr8 bottoms the same through a buffer (`sourceOverThreeByte`, widened and narrowed by
    /// the level's `widen` and `narrow`); the rest of a row, and
    /// gray8 bottoms, a plain loop.
    @inlinable @inline(__always)
    public static func sourceOver(_ t: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>,
                                  _ width: Int, _ ch: Int,
                                  widen: ThreeByteWidening = scalarWidening, narrow: ThreeByteNarrowing = scalarNarrowing) {
        let start = ch == 4 ? sourceOverBGRA(t, b, d, width)
            : ch == 3 ? sourceOverThreeByte(t, b, d, width, widen: widen, narrow: narrow) : 0
        for x in start..<Swift.max(start, width) {
            let keep = 255 &- Int(t[4 &* x &+ 3])
            for c in 0..<ch {
                let v = Int(b[ch &* x &+ c]) &* keep &+ 128
                d[ch &* x &+ c] = UInt8(truncatingIfNeeded: Swift.min(255, Int(t[4 &* x &+ c]) &+ ((v &+ (v &>> 8)) &>> 8)))
            }
        }
    }

    /// Source-over of eight BGRA pixels a step in 16-bit lanes (`eachHalf`), the same
    /// arithmetic as the plain loop: keep is spread to both halves, and every intermediate
    /// fits 16 bits (b·keep + 128 ≤ 65153, plus its high byte ≤ 65407; t + quotient ≤ 509).
    /// The plain loop compiled to 5 ms at 1080p on Zen 3 (avx2), about 7 cycles a pixel.
    /// Returns the pixels done (a multiple of 8).
    @inlinable @inline(__always)
    public static func sourceOverBGRA(_ t: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>,
                                      _ width: Int) -> Int {
        let round = ByteHalves(repeating: 128), lowByte = ByteHalves(repeating: 0xFF)
        var x = 0
        while x &+ 8 <= width {
            let tv = UnsafeRawPointer(t + 4 &* x).loadUnaligned(as: EightPixels.self)
            let bv = UnsafeRawPointer(b + 4 &* x).loadUnaligned(as: EightPixels.self)
            let keep = spreadToHalves((tv &>> 24) ^ 0xFF)
            let over = eachHalf(tv, bv) { tc, bc in
                let sum = tc &+ divideBy255(bc &* keep &+ round)
                // min(sum, 255) for sum ≤ 509 without a min: the standard library's
                // pointwiseMin stayed a generic call here and a lane loop a scalar loop.
                return (sum | (ByteHalves.zero &- (sum &>> 8))) & lowByte
            }
            UnsafeMutableRawPointer(d + 4 &* x).storeBytes(of: over, as: EightPixels.self)
            x &+= 8
        }
        return x
    }
}
