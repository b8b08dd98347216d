import FramelabCore
import FramelabCV
import FramelabKernels

/// Source-over of a generated overlay (premultiplied BGRA) on the frame, as a filter
/// operation: compositing, so in a recipe it starts a pass.
struct SourceOverOperation: FilterOperation {
    let overlay: Generator

    var fusion: Fusion { .compositing }
    var planLabel: String { "composite source-over" }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        sameColorShape(format, width, height)
    }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        let top = Mat(format: .bgra8, width: input.width, height: input.height)
        overlay.premultiplied.renderVector(into: top, rows: 0..<top.height, kernels: kernels)
        return SourceOverKernel(top: top, kernels: kernels)
    }
}

/// Source-over's three paths with its overlay made once for the input shape (the layer is
/// an input, not the operation being measured).
final class SourceOverKernel: OperationKernel {
    let top: Mat
    let kernels: KernelTable

    init(top: Mat, kernels: KernelTable) {
        self.top = top
        self.kernels = kernels
    }

    func applyScalar(_ input: Mat, into output: Mat) { Compositing.sourceOverScalar(top: top, bottom: input, into: output) }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        Compositing.sourceOver(top: top, bottom: input, into: output, rows: rows, kernels: kernels)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try OpenCVFilters.sourceOver(top: top, bottom: input, into: output)
    }
}

/// The frame where a generated gray mask is white, a generated background where it is
/// black, as a filter operation: compositing, so in a recipe it starts a pass.
struct BlendWithMaskOperation: FilterOperation {
    let background: Generator
    let mask: Generator

    var fusion: Fusion { .compositing }
    var planLabel: String { "composite blend-with-mask" }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        sameColorShape(format, width, height)
    }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        let bg = Mat(format: input.format, width: input.width, height: input.height)
        background.renderVector(into: bg, rows: 0..<bg.height, kernels: kernels)
        let m = Mat(format: .gray8, width: input.width, height: input.height)
        mask.renderVector(into: m, rows: 0..<m.height, kernels: kernels)
        return BlendWithMaskKernel(background: bg, mask: m, kernels: kernels)
    }
}

/// Blend-with-mask's three paths with its layers made once for the input shape.
final class BlendWithMaskKernel: OperationKernel {
    let background: Mat
    let mask: Mat
    let kernels: KernelTable

    init(background: Mat, mask: Mat, kernels: KernelTable) {
        self.background = background
        self.mask = mask
        self.kernels = kernels
    }

    func applyScalar(_ input: Mat, into output: Mat) {
        Compositing.blendWithMaskScalar(foreground: input, background: background, mask: mask, into: output)
    }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        Compositing.blendWithMask(foreground: input, background: background, mask: mask, into: output, rows: rows,
                                  kernels: kernels)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try OpenCVFilters.blendWithMask(foreground: input, background: background, mask: mask, into: output)
    }
}

extension Generator {
    /// The same generator with colours premultiplied by their alpha.
    var premultiplied: Generator {
        func pm(_ c: RGBAColor) -> RGBAColor { RGBAColor(r: c.r * c.a, g: c.g * c.a, b: c.b * c.a, a: c.a) }
        switch self {
        case .constantColor(let c): return .constantColor(pm(c))
        case let .radialGradient(x, y, r0, r1, c0, c1): return .radialGradient(centerX: x, centerY: y, radius0: r0, radius1: r1, color0: pm(c0), color1: pm(c1))
        }
    }
}

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
    public static func sourceOverVector(top: Mat, bottom: Mat, into output: Mat, rows: Range<Int>,
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
    public static func blendWithMaskVector(foreground: Mat, background: Mat, mask: Mat, into output: Mat, rows: Range<Int>,
                                           level: KernelLevel = .current) {
        blendWithMask(foreground: foreground, background: background, mask: mask, into: output, rows: rows,
                      kernels: level.kernels)
    }

    static func blendWithMask(foreground: Mat, background: Mat, mask: Mat, into output: Mat, rows: Range<Int>,
                              kernels: KernelTable) {
        let ch = output.format.channels
        mask.withUnsafeBytes { mb in
            let mbase = mb.baseAddress!.assumingMemoryBound(to: UInt8.self)
            forEachRowTriple(foreground, background, output, rows: rows) { f, b, d, y in
                let m = mbase + y * mask.stride
                for x in kernels.blend(f, b, m, d, output.width, ch)..<output.width {
                    let w = Int(m[x])
                    for c in 0..<ch {
                        let i = ch * x + c
                        let v = Int(f[i]) * w + Int(b[i]) * (255 - w) + 128
                        d[i] = UInt8((v + (v >> 8)) >> 8)
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
