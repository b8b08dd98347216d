import FramelabCore
import FramelabCV
import FramelabKernels

/// A resampling (crop, affine, straighten) as a filter operation: the warp may depend on
/// the input size; consecutive resamplings compose into one in a recipe.
struct WarpOperation: ResamplingOperation, PlainOperation {
    let make: @Sendable (Int, Int) -> Warp

    /// A warp chosen from the input size (crop, affine framing, straighten).
    init(_ make: @escaping @Sendable (Int, Int) -> Warp) { self.make = make }

    /// One fixed warp (a recipe's composed resampling).
    init(fixed warp: Warp) { make = { _, _ in warp } }

    var fusion: Fusion { .resampling(self) }

    func warp(width: Int, height: Int) -> Warp { make(width, height) }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        guard format != .grayF32 else { return nil }
        let warp = make(width, height)
        return (format, warp.width, warp.height)
    }

    var planLabel: String { "resampling" }

    /// How `explain` describes this resampling for an input size.
    func planLabel(width: Int, height: Int) -> String {
        let t = make(width, height).transform
        let kind = t.isPixelExact ? "exact pixel copy" : "bilinear"
        let c = [t.a, t.b, t.tx, t.c, t.d, t.ty].map { short($0) }
        return "one resampling (\(kind)) [\(c[0...2].joined(separator: " ")); \(c[3...5].joined(separator: " "))]"
    }

    func applyScalar(_ input: Mat, into output: Mat) {
        WarpKernel.applyScalar(make(input.width, input.height), input, into: output)
    }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
        WarpKernel.applyVector(make(input.width, input.height), input, into: output, rows: rows)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try OpenCVFilters.warpAffine(input, into: output, matrix: make(input.width, input.height).transform.openCVMatrix)
    }
}

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

    /// The vector entry (scalar code: bilinear gathers do not vectorise here): exact maps copy pixels; others blend with 8-bit weights. Positions
    /// are computed per pixel with the reference's own expression, so both paths agree on
    /// which output pixels fall outside the input.
    static func applyVector(_ warp: Warp, _ input: Mat, into output: Mat, rows: Range<Int>) {
        guard let inv = warp.transform.inverse else { return }
        if warp.transform.isPixelExact, copyExact(inv, input, into: output, rows: rows) { return }
        let channels = input.format.channels
        let w = input.width, h = input.height
        let exact = warp.transform.isPixelExact
        let right = Double(w) - 0.5, bottom = Double(h) - 0.5
        forEachOutputRow(input, output, rows: rows) { s, d, y in
            let cy = Double(y) + 0.5
            for x in 0..<output.width {
                let p = inv.apply(Double(x) + 0.5, cy)
                let fx = p.x - 0.5, fy = p.y - 0.5
                let o = x * channels
                guard fx >= -0.5, fy >= -0.5, fx <= right, fy <= bottom else {
                    for c in 0..<channels { d[o + c] = 0 }
                    continue
                }
                if exact {
                    let sp = s + min(max(Int(fy.rounded()), 0), h - 1) * input.stride + min(max(Int(fx.rounded()), 0), w - 1) * channels
                    for c in 0..<channels { d[o + c] = sp[c] }
                    continue
                }
                let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                let ax = Int(((fx - Double(x0)) * 256).rounded()), ay = Int(((fy - Double(y0)) * 256).rounded())
                let xa = min(max(x0, 0), w - 1), xb = min(max(x0 + 1, 0), w - 1)
                let ya = min(max(y0, 0), h - 1), yb = min(max(y0 + 1, 0), h - 1)
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

extension WarpKernel {
    /// Maps that move whole pixels, with every output pixel inside the input: a translation
    /// copies row segments; quarter turns and mirrors step through the source in whole
    /// pixels. Returns false (nothing written) when some output pixel falls outside.
    static func copyExact(_ inv: Affine2D, _ input: Mat, into output: Mat, rows: Range<Int>) -> Bool {
        let bpp = input.format.bytesPerPixel
        // Source pixel of output (x, y): (ax·x + bx·y + cx, ay·x + by·y + cy), all integers.
        let ax = Int(inv.a), bx = Int(inv.b), ay = Int(inv.c), by = Int(inv.d)
        let cx = Int((inv.apply(0.5, 0.5).x - 0.5).rounded()), cy = Int((inv.apply(0.5, 0.5).y - 0.5).rounded())
        for (x, y) in [(0, 0), (output.width - 1, 0), (0, output.height - 1), (output.width - 1, output.height - 1)] {
            let sx = ax * x + bx * y + cx, sy = ay * x + by * y + cy
            if sx < 0 || sy < 0 || sx >= input.width || sy >= input.height { return false }
        }
        let srcStep = ay * input.stride + ax * bpp
        forEachOutputRow(input, output, rows: rows) { s, d, y in
            let start = s + (by * y + cy) * input.stride + (bx * y + cx) * bpp
            if ax == 1 && ay == 0 {
                d.update(from: start, count: output.width * bpp)
                return
            }
            var p = start
            for x in 0..<output.width {
                for c in 0..<bpp { d[x * bpp + c] = p[c] }
                p += srcStep
            }
        }
        return true
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

extension Affine2D {
    /// The 2x3 matrix for cv::warpAffine, whose pixel centres sit at integers, not +0.5.
    var openCVMatrix: [Double] {
        [a, b, tx + 0.5 * a + 0.5 * b - 0.5, c, d, ty + 0.5 * c + 0.5 * d - 0.5]
    }
}
