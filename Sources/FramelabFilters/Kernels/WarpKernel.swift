import FramelabCore

/// Resampling for `Warp`: each output pixel centre is mapped back into the input and
/// sampled bilinearly. Points farther than half a pixel outside the input give
/// transparent black; within that margin the edge pixel is repeated.
enum WarpKernel {
    /// The scalar reference, in Double.
    static func applyScalar(_ warp: Warp, _ input: Mat, into output: Mat) {
        guard let inv = warp.transform.inverse else { return }
        let channels = input.format.channels
        let w = input.width, h = input.height
        forEachOutputRow(input, output, rows: 0..<output.height) { s, d, y in
            for x in 0..<output.width {
                let p = inv.apply(Double(x) + 0.5, Double(y) + 0.5)
                let fx = p.x - 0.5, fy = p.y - 0.5
                let o = x * channels
                guard fx >= -0.5, fy >= -0.5, fx <= Double(w) - 0.5, fy <= Double(h) - 0.5 else {
                    for c in 0..<channels { d[o + c] = 0 }
                    continue
                }
                let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                let ax = fx - Double(x0), ay = fy - Double(y0)
                let xa = min(max(x0, 0), w - 1), xb = min(max(x0 + 1, 0), w - 1)
                let ya = min(max(y0, 0), h - 1), yb = min(max(y0 + 1, 0), h - 1)
                for c in 0..<channels {
                    func at(_ xx: Int, _ yy: Int) -> Double { Double(s[yy * input.stride + xx * channels + c]) }
                    let top = at(xa, ya) * (1 - ax) + at(xb, ya) * ax
                    let bottom = at(xa, yb) * (1 - ax) + at(xb, yb) * ax
                    d[o + c] = clampToByte(top * (1 - ay) + bottom * ay)
                }
            }
        }
    }

    /// The fast path: exact maps copy pixels; others step the source position along each
    /// row in 16.16 fixed point and blend with 8-bit weights.
    static func applyFast(_ warp: Warp, _ input: Mat, into output: Mat, rows: Range<Int>) {
        guard let inv = warp.transform.inverse else { return }
        let channels = input.format.channels
        let w = input.width, h = input.height
        let one = 65536.0
        // Per output step in x, the source moves by (inv.a, inv.c).
        let dx = Int((inv.a * one).rounded()), dy = Int((inv.c * one).rounded())
        let exact = warp.transform.isPixelExact
        let minF = -32768, maxX = (w - 1) * 65536 + 32768, maxY = (h - 1) * 65536 + 32768
        forEachOutputRow(input, output, rows: rows) { s, d, y in
            let p = inv.apply(0.5, Double(y) + 0.5)
            var fx = Int(((p.x - 0.5) * one).rounded()), fy = Int(((p.y - 0.5) * one).rounded())
            for x in 0..<output.width {
                defer { fx += dx; fy += dy }
                let o = x * channels
                guard fx >= minF, fy >= minF, fx <= maxX, fy <= maxY else {
                    for c in 0..<channels { d[o + c] = 0 }
                    continue
                }
                let x0 = fx >> 16, y0 = fy >> 16
                let xa = min(max(x0, 0), w - 1), ya = min(max(y0, 0), h - 1)
                if exact {
                    let sp = s + ya * input.stride + xa * channels
                    for c in 0..<channels { d[o + c] = sp[c] }
                    continue
                }
                let ax = (fx >> 8) & 0xFF, ay = (fy >> 8) & 0xFF
                let xb = min(max(x0 + 1, 0), w - 1), yb = min(max(y0 + 1, 0), h - 1)
                let r0 = s + ya * input.stride, r1 = s + yb * input.stride
                for c in 0..<channels {
                    let top = Int(r0[xa * channels + c]) * (256 - ax) + Int(r0[xb * channels + c]) * ax
                    let bottom = Int(r1[xa * channels + c]) * (256 - ax) + Int(r1[xb * channels + c]) * ax
                    d[o + c] = UInt8(truncatingIfNeeded: (top * (256 - ay) + bottom * ay + 32768) >> 16)
                }
            }
        }
    }
}

/// Calls `body` with the input's base address and each output row in `rows`, with its index.
/// Pointers are valid only inside `body`.
func forEachOutputRow(_ input: Mat, _ output: Mat, rows: Range<Int>,
                      _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Void) {
    output.withUnsafeMutableBytes { dst in
        input.withUnsafeBytes { src in
            guard let s = src.baseAddress?.assumingMemoryBound(to: UInt8.self),
                  let d = dst.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in rows { body(s, d + y * output.stride, y) }
        }
    }
}
