import FramelabCore

/// The SIMD colour-matrix kernel: fixed point with 12 fractional bits, eight BGRA pixels
/// per step as 32-bit lanes (one AVX2 register), then a scalar tail.
///
/// 12 bits keep the coefficient error below 0.13 of a level for any input, so results
/// stay within ±1 of the Double reference; products stay far inside Int32 for matrices
/// with coefficients up to ±500 (composed recipes included).
struct ColorMatrixKernel {
    static let shift: Int32 = 12
    /// Coefficients ×4096, rows R, G, B, A; columns R, G, B, A; then bias ×4096 (+ rounding).
    let c: [Int32]
    let bias: [Int32]
    let keepsAlpha: Bool
    /// The same, splatted into vectors once (the 4x4 loop reads them per row).
    private let cSplat: [SIMD8<Int32>]
    private let biasSplat: [SIMD8<Int32>]

    init(_ matrix: ColorMatrix) {
        let one = Double(1 << Self.shift)
        c = matrix.m.flatMap { row in row.map { Int32(($0 * one).rounded()) } }
        bias = matrix.bias.map { Int32(($0 * one).rounded()) + (1 << (Self.shift - 1)) }
        keepsAlpha = matrix.keepsAlpha
        cSplat = c.map { SIMD8(repeating: $0) }
        biasSplat = bias.map { SIMD8(repeating: $0) }
    }

    /// Applies to rows `rows` of `input` into `output` (same shape, bgra8 or bgr8).
    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        forEachRowPair(input, output, rows: rows) { s, d in
            var x = 0
            if input.format == .bgra8 {
                x = keepsAlpha ? vector3(s, d, input.width) : vector4(s, d, input.width)
            }
            tail(s, d, from: x, to: input.width, step: input.format.bytesPerPixel)
        }
    }

    /// 3x3 on B, G, R; alpha copied. Returns the first pixel not done.
    @inline(__always)
    private func vector3(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int) -> Int {
        typealias V = SIMD8<Int32>
        // Splat once per row: the loop body is then pure vector arithmetic.
        let rr = V(repeating: c[0]), rg = V(repeating: c[1]), rb = V(repeating: c[2])
        let gr = V(repeating: c[4]), gg = V(repeating: c[5]), gb = V(repeating: c[6])
        let br = V(repeating: c[8]), bg = V(repeating: c[9]), bb = V(repeating: c[10])
        let r0 = V(repeating: bias[0]), g0 = V(repeating: bias[1]), b0 = V(repeating: bias[2])
        let mask = V(repeating: 0xFF), alpha = V(repeating: -16_777_216), hi = V(repeating: 255)
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        var x = 0
        while x + 8 <= width {
            let v = (src + 4 * x).loadUnaligned(as: V.self)
            let b = v & mask, g = (v &>> 8) & mask, r = (v &>> 16) & mask
            let nr = pointwiseMin(pointwiseMax((r &* rr &+ g &* rg &+ b &* rb &+ r0) &>> Self.shift, .zero), hi)
            let ng = pointwiseMin(pointwiseMax((r &* gr &+ g &* gg &+ b &* gb &+ g0) &>> Self.shift, .zero), hi)
            let nb = pointwiseMin(pointwiseMax((r &* br &+ g &* bg &+ b &* bb &+ b0) &>> Self.shift, .zero), hi)
            (dst + 4 * x).storeBytes(of: nb | (ng &<< 8) | (nr &<< 16) | (v & alpha), as: V.self)
            x += 8
        }
        return x
    }

    /// Full 4x4 including alpha. Returns the first pixel not done.
    @inline(__always)
    private func vector4(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int) -> Int {
        typealias V = SIMD8<Int32>
        let k = cSplat, o = biasSplat
        let mask = V(repeating: 0xFF), hi = V(repeating: 255)
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        var x = 0
        while x + 8 <= width {
            let v = (src + 4 * x).loadUnaligned(as: V.self)
            let b = v & mask, g = (v &>> 8) & mask, r = (v &>> 16) & mask, a = (v &>> 24) & mask
            func row(_ i: Int) -> V {
                let sum = r &* k[4 * i] &+ g &* k[4 * i + 1] &+ b &* k[4 * i + 2] &+ a &* k[4 * i + 3] &+ o[i]
                return pointwiseMin(pointwiseMax(sum &>> Self.shift, .zero), hi)
            }
            (dst + 4 * x).storeBytes(of: row(2) | (row(1) &<< 8) | (row(0) &<< 16) | (row(3) &<< 24), as: V.self)
            x += 8
        }
        return x
    }

    /// Scalar fixed-point tail (and the whole row for bgr8, whose 3-byte pixels do not
    /// fit 32-bit lanes).
    @inline(__always)
    private func tail(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, from start: Int, to width: Int, step: Int) {
        for x in start..<width {
            let p = x * step
            let b = Int32(s[p]), g = Int32(s[p + 1]), r = Int32(s[p + 2])
            let a: Int32 = step == 4 ? Int32(s[p + 3]) : 255
            func row(_ i: Int) -> UInt8 {
                let sum = r &* c[4 * i] &+ g &* c[4 * i + 1] &+ b &* c[4 * i + 2] &+ a &* c[4 * i + 3] &+ bias[i]
                return UInt8(clamping: sum >> Self.shift)
            }
            d[p + 2] = row(0)
            d[p + 1] = row(1)
            d[p] = row(2)
            if step == 4 { d[p + 3] = keepsAlpha ? s[p + 3] : row(3) }
        }
    }
}
