import FramelabCore

/// A colour matrix followed by per-channel curves (a recipe's "sepia ∘ hue ∘ … → gamma"),
/// in one loop over each BGRA row.
///
/// The matrix is vector work (FMAs on the floating-point pipes); the curve is three table
/// lookups per pixel, which x86 can only do with scalar loads (no byte gather) on the
/// integer pipes and load ports. Run one after the other they add up (about 3.2 + 2.9 ms
/// at 1080p here); interleaved in the same loop the out-of-order core runs them side by
/// side. The lookups trail the vector part by `lag` pixels of the output row, so they
/// read pixels the vector stores wrote a few iterations earlier (already in L1, and not
/// waiting on store forwarding from a 32-byte store into a 4-byte load).
struct MatrixCurveKernel {
    let matrix: ColorMatrixKernel
    let curves: ChannelCurves
    static let lag = 32

    /// True when the pair can run fused: BGRA with alpha kept (the common case); other
    /// inputs run the two steps one after the other.
    static func fuses(_ matrix: ColorMatrix, format: PixelFormat) -> Bool {
        format == .bgra8 && matrix.keepsAlpha
    }

    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        guard input.format == .bgra8, matrix.keepsAlpha else {
            matrix.apply(input, into: output, rows: rows)
            curves.applyTables(output, into: output, rows: rows)
            return
        }
        let width = input.width
        matrix.coefficients.withUnsafeBufferPointer { k in
            curves.packedTables.withUnsafeBufferPointer { t in
                let k = k.baseAddress!, t = t.baseAddress!
                forEachRowPair(input, output, rows: rows) { s, d in
                    let done: Int
                    switch matrix.clamp {
                    case .both: done = Self.row(s, d, width, k, t, BothClamps.self)
                    case .high: done = Self.row(s, d, width, k, t, HighClamp.self)
                    case .low: done = Self.row(s, d, width, k, t, LowClamp.self)
                    case .none: done = Self.row(s, d, width, k, t, NoClamp.self)
                    }
                    // The last pixels (fewer than a vector): matrix in scalar, then their lookups.
                    matrix.applyRowTail(s, d, from: done, to: width, k)
                    lookUpRowBGRA(s: UnsafeRawPointer(d), d, from: done, to: width, t)
                }
            }
        }
    }

    typealias F = SIMD8<Float>
    typealias I = SIMD8<Int32>

    /// Vector matrix on pixels x…x+7, lookups on x−lag…x−lag+7; returns the first pixel
    /// the vector part did not do (every pixel before it has had its lookup too). Not
    /// inlined, for the reason given at `ColorMatrixKernel.row3`. The matrix step repeats
    /// `row3`'s on purpose: sharing it through an inlined struct of splats measured 17%
    /// slower in both loops (1080p sepia 2.76 → 3.25 ms, same run conditions).
    @inline(never)
    private static func row<C: ClampMode>(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                          _ k: UnsafePointer<Float>, _ t: UnsafePointer<UInt32>, _ mode: C.Type) -> Int {
        let rr = F(repeating: k[0]), rg = F(repeating: k[1]), rb = F(repeating: k[2]), r0 = F(repeating: k[4])
        let gr = F(repeating: k[5]), gg = F(repeating: k[6]), gb = F(repeating: k[7]), g0 = F(repeating: k[9])
        let br = F(repeating: k[10]), bg = F(repeating: k[11]), bb = F(repeating: k[12]), b0 = F(repeating: k[14])
        let mask = I(repeating: 0xFF), alpha = I(repeating: -16_777_216)
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let b = ColorMatrixKernel.float(v & mask), g = ColorMatrixKernel.float((v &>> 8) & mask)
            let r = ColorMatrixKernel.float((v &>> 16) & mask)
            let nr = ColorMatrixKernel.roundClamp(r0.addingProduct(r, rr).addingProduct(g, rg).addingProduct(b, rb), C.self)
            let ng = ColorMatrixKernel.roundClamp(g0.addingProduct(r, gr).addingProduct(g, gg).addingProduct(b, gb), C.self)
            let nb = ColorMatrixKernel.roundClamp(b0.addingProduct(r, br).addingProduct(g, bg).addingProduct(b, bb), C.self)
            (dst + 4 &* x).storeBytes(of: (nb & mask) | (ng &<< 8) | (nr &<< 16) | (v & alpha), as: I.self)
            if x >= lag { lookUpEight(dst + 4 &* (x &- lag), t) }
            x &+= 8
        }
        // The lookups the loop has not reached yet.
        lookUpRowBGRA(s: UnsafeRawPointer(dst), d, from: max(0, x &- lag), to: x, t)
        return x
    }

    /// Eight pixels through the packed tables, in place.
    @inline(__always)
    private static func lookUpEight(_ p: UnsafeMutableRawPointer, _ t: UnsafePointer<UInt32>) {
        let tg = t + 256, tr = t + 512
        @inline(__always) func look(_ o: Int) {
            let v = (p + o).loadUnaligned(as: UInt32.self)
            let out = t[Int(v & 0xFF)] | tg[Int((v &>> 8) & 0xFF)] | tr[Int((v &>> 16) & 0xFF)] | (v & 0xFF00_0000)
            (p + o).storeBytes(of: out, as: UInt32.self)
        }
        look(0); look(4); look(8); look(12); look(16); look(20); look(24); look(28)
    }
}
