import FramelabCore
import FramelabKernels

/// Two- and three-input compositing on same-size images.
public enum Compositing {
    /// Porter-Duff source-over on premultiplied BGRA (Core Image's convention):
    /// out = top + bottom · (1 − top alpha), every channel including alpha.
    public static func sourceOverScalar(top: Mat, bottom: Mat, into output: Mat) {
        precondition(top.format == .bgra8, "sourceOver: top must be bgra8")
        let ch = bottom.format.channels
        forEachRowTriple(top, bottom, output) { t, b, d in
            for x in 0..<output.width {
                let keep = 1 - Double(t[4 * x + 3]) / 255
                for c in 0..<ch { d[ch * x + c] = clampToByte(Double(t[4 * x + c]) + Double(b[ch * x + c]) * keep) }
            }
        }
    }

    /// Fixed-point source-over with the level's `sourceOver` rows: keep = 255 − alpha;
    /// b·keep/255 by the exact (v + 128 + ((v + 128) >> 8)) >> 8 division.
    public static func sourceOverFast(top: Mat, bottom: Mat, into output: Mat, rows: Range<Int>,
                                      level: KernelLevel = .current) {
        sourceOver(top: top, bottom: bottom, into: output, rows: rows, kernels: level.kernels)
    }

    static func sourceOver(top: Mat, bottom: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
        let ch = bottom.format.channels
        forEachRowTriple(top, bottom, output, rows: rows) { t, b, d in kernels.sourceOver(t, b, d, output.width, ch) }
    }

    /// out = foreground · m + background · (1 − m), m = mask / 255 (a gray8 image).
    public static func blendWithMaskScalar(foreground: Mat, background: Mat, mask: Mat, into output: Mat) {
        precondition(mask.format == .gray8, "blendWithMask: mask must be gray8")
        let ch = output.format.channels
        forEachRowTriple(foreground, background, output) { f, b, d, y in
            mask.withUnsafeBytes { mb in
                let m = mb.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * mask.stride
                for x in 0..<output.width {
                    let w = Double(m[x]) / 255
                    for c in 0..<ch { d[ch * x + c] = clampToByte(Double(f[ch * x + c]) * w + Double(b[ch * x + c]) * (1 - w)) }
                }
            }
        }
    }

    /// SIMD blend with the level's `blend` (the exact division by 255), then a scalar tail.
    public static func blendWithMaskFast(foreground: Mat, background: Mat, mask: Mat, into output: Mat, rows: Range<Int>,
                                         level: KernelLevel = .current) {
        blendWithMask(foreground: foreground, background: background, mask: mask, into: output, rows: rows,
                      kernels: level.kernels)
    }

    static func blendWithMask(foreground: Mat, background: Mat, mask: Mat, into output: Mat, rows: Range<Int>,
                              kernels: KernelTable) {
        let ch = output.format.channels
        var weights = [UInt8](repeating: 0, count: output.width * ch + 8)
        mask.withUnsafeBytes { mb in
            let mbase = mb.baseAddress!.assumingMemoryBound(to: UInt8.self)
            weights.withUnsafeMutableBufferPointer { wb in
                let wp = wb.baseAddress!
                forEachRowTriple(foreground, background, output, rows: rows) { f, b, d, y in
                    let m = mbase + y * mask.stride
                    // The mask spread to every channel, so the vector loop reads three aligned streams.
                    for x in 0..<output.width { for c in 0..<ch { wp[ch * x + c] = m[x] } }
                    let n = output.width * ch
                    var i = kernels.blend(f, b, wp, d, n)
                    while i < n {
                        let w = Int(wp[i])
                        let v = Int(f[i]) * w + Int(b[i]) * (255 - w) + 128
                        d[i] = UInt8((v + (v >> 8)) >> 8)
                        i += 1
                    }
                }
            }
        }
    }
}

/// Rows of three same-height images (two inputs, one output) with the row index.
func forEachRowTriple(_ a: Mat, _ b: Mat, _ out: Mat, rows: Range<Int>? = nil,
                      _ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Void) {
    out.withUnsafeMutableBytes { o in
        a.withUnsafeBytes { ab in
            b.withUnsafeBytes { bb in
                guard let op = o.baseAddress?.assumingMemoryBound(to: UInt8.self),
                      let ap = ab.baseAddress?.assumingMemoryBound(to: UInt8.self),
                      let bp = bb.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                for y in rows ?? 0..<out.height { body(ap + y * a.stride, bp + y * b.stride, op + y * out.stride, y) }
            }
        }
    }
}

func forEachRowTriple(_ a: Mat, _ b: Mat, _ out: Mat, rows: Range<Int>? = nil,
                      _ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void) {
    forEachRowTriple(a, b, out, rows: rows) { x, y, z, _ in body(x, y, z) }
}
