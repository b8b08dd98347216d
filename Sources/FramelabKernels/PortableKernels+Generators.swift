/// The generators' loops: radial-gradient positions and pixels, and the fill of one colour.
///
/// Clamps work on the bits of the Float lanes as Int32 (`lanewiseMin/Max`), not with
/// `pointwiseMin/Max` or a loop of `Swift.min` on Float lanes: the first are generic and a
/// level module emitted their specialisations under names every module shares (the linker
/// could then run AVX code at baseline; `KernelLevelTests`), and the second compiled to a
/// branch and a reload per lane (40 ms for a 1080p gradient).
extension PortableKernels {
    /// Gradient positions, eight pixels at a time (the last step may write up to 7 past
    /// `width`): t = clamp((|(x + 0.5 − centreX, dy)| − inner) / span, 0, 1).
    @inlinable @inline(__always)
    public static func gradient(_ t: UnsafeMutablePointer<Float>, _ width: Int, _ centreX: Float, _ dy: Float,
                                _ inner: Float, _ span: Float) {
        let lanes = F(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5)
        let cx = F(repeating: centreX), dy2 = F(repeating: dy * dy), innerV = F(repeating: inner), scale = F(repeating: 1 / span)
        var x = 0
        while x < width {
            let t8 = gradientPosition(lanes + F(repeating: Float(x)) - cx, dy2, innerV, scale)
            UnsafeMutableRawPointer(t + x).storeBytes(of: t8, as: F.self)
            x &+= 8
        }
    }

    /// Radial-gradient BGRA pixels, eight per step: t as in `gradient` (the same lanes, so
    /// the same values), channel c = colours[c] + colours[4 + c]·t (B, G, R, A of the inner
    /// colour, then the outer colour minus the inner one, on 0…255), rounded and clamped to
    /// 0…255 (`roundClamp`), packed into 32-bit pixels, one store. Returns the first pixel
    /// not done (a multiple of 8); the caller's scalar tail does the rest.
    @inlinable @inline(__always)
    public static func gradientBGRA(_ dst: UnsafeMutableRawPointer, _ width: Int, _ centreX: Float, _ dy: Float,
                                    _ inner: Float, _ span: Float, _ colours: UnsafePointer<Float>) -> Int {
        let lanes = F(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5)
        let cx = F(repeating: centreX), dy2 = F(repeating: dy * dy), innerV = F(repeating: inner), scale = F(repeating: 1 / span)
        let fb = F(repeating: colours[0]), fg = F(repeating: colours[1]), fr = F(repeating: colours[2]), fa = F(repeating: colours[3])
        let db = F(repeating: colours[4]), dg = F(repeating: colours[5]), dr = F(repeating: colours[6]), da = F(repeating: colours[7])
        let mask = I(repeating: 0xFF)
        var x = 0
        while x &+ 8 <= width {
            let t = gradientPosition(lanes + F(repeating: Float(x)) - cx, dy2, innerV, scale)
            let b = roundClamp(madd(fb, t, db), BothClamps.self), g = roundClamp(madd(fg, t, dg), BothClamps.self)
            let r = roundClamp(madd(fr, t, dr), BothClamps.self), a = roundClamp(madd(fa, t, da), BothClamps.self)
            // Shifting moves each channel's byte into place and the 0x4B above it out.
            (dst + 4 &* x).storeBytes(of: (b & mask) | (g &<< 8) | (r &<< 16) | (a &<< 24), as: I.self)
            x &+= 8
        }
        return x
    }

    /// A row of `width` 32-bit pixels set to `pattern` (a constant colour): 32 pixels per
    /// step in four vector stores, then eight, then one at a time. At the avx2 level the
    /// stores are 256-bit: a stand-alone C loop filling a 1080p BGRA frame took 0.16–0.18 ms
    /// that way, 0.22–0.27 ms with 128-bit stores (what the baseline level and the old fill
    /// in `FramelabFilters` compile to), 0.17–0.24 ms as OpenCV's `setTo` does it (memcpy of
    /// a 4 KB block of the pattern), on Zen 3 (docs/filters.md).
    @inlinable @inline(__always)
    public static func fill(_ dst: UnsafeMutableRawPointer, _ width: Int, _ pattern: UInt32) {
        let v = I(repeating: Int32(bitPattern: pattern))
        var x = 0
        while x &+ 32 <= width {
            let p = dst + 4 &* x
            p.storeBytes(of: v, as: I.self)
            (p + 32).storeBytes(of: v, as: I.self)
            (p + 64).storeBytes(of: v, as: I.self)
            (p + 96).storeBytes(of: v, as: I.self)
            x &+= 32
        }
        while x &+ 8 <= width {
            (dst + 4 &* x).storeBytes(of: v, as: I.self)
            x &+= 8
        }
        while x < width {
            (dst + 4 &* x).storeBytes(of: pattern, as: UInt32.self)
            x &+= 1
        }
    }

    /// clamp((|(dx, dy)| − inner) / span, 0, 1) for eight pixels (`dy2` is dy², `scale`
    /// 1 / span: a multiply, where a division per step shares the divider with the square
    /// root; the rounding of 1 / span moves t by about 1e-7).
    @inlinable @inline(__always)
    static func gradientPosition(_ dx: F, _ dy2: F, _ inner: F, _ scale: F) -> F {
        unitClamp(((dx * dx + dy2).squareRoot() - inner) * scale)
    }

    /// Lanes clamped to 0…1 on their bits: non-negative Floats order as their Int32 bits,
    /// negative ones (and −0) have the sign bit set, so they are below 0 as Int32.
    @inlinable @inline(__always)
    static func unitClamp(_ v: F) -> F {
        let bits = lanewiseMin(lanewiseMax(unsafeBitCast(v, to: I.self), I(repeating: 0)), I(repeating: 0x3F80_0000))
        return unsafeBitCast(bits, to: F.self)
    }
}
