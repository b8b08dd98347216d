/// The resize (Lanczos) loops: a vertical pass from byte rows into one Float row, then a
/// horizontal pass from that row into output bytes. Float and not fixed point: the
/// Lanczos weights are negative in places and their count grows with the shrink factor,
/// so integer sums would need a per-scale bound; Float sums of at most a few thousand
/// bytes stay far inside the ±0.5 rounding the reference allows.
extension PortableKernels {
    /// Vertical pass: `n` Floats, out[i] = Σ rows[k][i]·weights[k] for k in 0..<taps;
    /// returns the first element not done (a multiple of 8).
    @inlinable @inline(__always)
    public static func resizeVertical(_ rows: UnsafePointer<UnsafePointer<UInt8>>, _ weights: UnsafePointer<Float>,
                                      _ taps: Int, _ out: UnsafeMutablePointer<Float>, _ n: Int) -> Int {
        var i = 0
        // Sixteen at a time: two independent sums hide the add latency.
        while i &+ 16 <= n {
            var a = F(repeating: 0), b = F(repeating: 0)
            for k in 0..<taps {
                let w = F(repeating: weights[k])
                let p = UnsafeRawPointer(rows[k] + i)
                a = madd(a, bytes(p), w)
                b = madd(b, bytes(p + 8), w)
            }
            UnsafeMutableRawPointer(out + i).storeBytes(of: a, as: F.self)
            UnsafeMutableRawPointer(out + (i &+ 8)).storeBytes(of: b, as: F.self)
            i &+= 16
        }
        while i &+ 8 <= n {
            var a = F(repeating: 0)
            for k in 0..<taps { a = madd(a, bytes(UnsafeRawPointer(rows[k] + i)), F(repeating: weights[k])) }
            UnsafeMutableRawPointer(out + i).storeBytes(of: a, as: F.self)
            i &+= 8
        }
        return i
    }

    /// Horizontal pass for 3- and 4-channel pixels: output pixel x is Σ row[starts[x] + k·channels + c]·weights[x·taps + k],
    /// rounded and clamped to a byte. Two pixels per step, each a 4-lane sum (a 3-channel
    /// pixel reads one Float past itself: `row` must have one to spare at the end). Returns
    /// the first pixel not done; 1-channel rows are left to the caller's scalar loop.
    @inlinable @inline(__always)
    public static func resizeHorizontal(_ row: UnsafePointer<Float>, _ starts: UnsafePointer<Int32>,
                                        _ weights: UnsafePointer<Float>, _ taps: Int,
                                        _ dst: UnsafeMutablePointer<UInt8>, _ width: Int, _ channels: Int) -> Int {
        typealias F4 = SIMD4<Float>
        guard channels == 3 || channels == 4 else { return 0 }
        // A 3-channel step stores 4 bytes per pixel (the fourth is overwritten by the next
        // pixel), so the last pixel is left to the caller.
        let end = channels == 4 ? width : width &- 1
        var x = 0
        while x &+ 2 <= end {
            var a = F4(repeating: 0), b = F4(repeating: 0)
            var pa = UnsafeRawPointer(row + Int(starts[x])), pb = UnsafeRawPointer(row + Int(starts[x &+ 1]))
            let wa = weights + x &* taps, wb = wa + taps
            let step = channels &* 4
            for k in 0..<taps {
                a += pa.loadUnaligned(as: F4.self) * F4(repeating: wa[k])
                b += pb.loadUnaligned(as: F4.self) * F4(repeating: wb[k])
                pa += step
                pb += step
            }
            let v = SIMD8<UInt8>(truncatingIfNeeded: roundClamp(F(lowHalf: a, highHalf: b), BothClamps.self))
            let d = dst + x &* channels
            if channels == 4 {
                UnsafeMutableRawPointer(d).storeBytes(of: v, as: SIMD8<UInt8>.self)
            } else {
                // The fourth byte of each store lands on the next pixel, which is written
                // after (by this step, the next, or the caller's last pixel).
                UnsafeMutableRawPointer(d).storeBytes(of: v.lowHalf, as: SIMD4<UInt8>.self)
                UnsafeMutableRawPointer(d + 3).storeBytes(of: v.highHalf, as: SIMD4<UInt8>.self)
            }
            x &+= 2
        }
        return x
    }

    /// Eight bytes as Floats.
    @inlinable @inline(__always)
    static func bytes(_ p: UnsafeRawPointer) -> F {
        float(I(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<UInt8>.self)))
    }
}
