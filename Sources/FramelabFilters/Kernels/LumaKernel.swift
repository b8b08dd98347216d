import FramelabCore
import FramelabCV
import FramelabKernels

/// Luma Y = 0.299 R + 0.587 G + 0.114 B into gray8 (the `gray` filter) as a filter
/// operation: per pixel, changing the format, so it ends a recipe pass. Gray8 input is copied.
struct LumaOperation: PerPixelOperation, PlainOperation {
    var fusion: Fusion { .perPixel(self) }
    var planLabel: String { "luma → gray8" }
    var endsPass: Bool { true }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        [.bgra8, .bgr8, .gray8].contains(format) ? (.gray8, width, height) : nil
    }

    func applyScalar(_ input: Mat, into output: Mat) {
        if input.format == .gray8 { output.copyPixels(from: input) } else { Luma.applyScalar(input, into: output) }
    }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
        if input.format == .gray8 {
            forEachRowPair(input, output, rows: rows) { s, d in d.update(from: s, count: input.width) }
        } else {
            Luma.applyVector(input, into: output, rows: rows, kernels: kernels)
        }
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        if input.format == .gray8 { output.copyPixels(from: input) } else { try input.convert(into: output) }
    }
}

/// The luma kernels: the scalar reference and the level's vector loop.
enum Luma {
    /// The scalar reference, in Double.
    static func applyScalar(_ input: Mat, into output: Mat) {
        let step = input.format.bytesPerPixel
        forEachRowPair(input, output) { s, d in
            for x in 0..<input.width {
                let p = x * step
                d[x] = clampToByte(0.114 * Double(s[p]) + 0.587 * Double(s[p + 1]) + 0.299 * Double(s[p + 2]))
            }
        }
    }

    // The weights ×2^14, as OpenCV's cvtColor uses them (they sum to exactly 2^14).
    static let wb = LumaWeights.b, wg = LumaWeights.g, wr = LumaWeights.r

    /// SIMD: the level's `luma` (fixed point, eight or more pixels a step), then a scalar tail.
    static func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
        let step = input.format.bytesPerPixel
        forEachRowPair(input, output, rows: rows) { s, d in
            var x = 0
            if step == 4 {
                x = kernels.luma(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), input.width)
            } else if step == 3 {
                // Straight from the three-byte row where the level can (VBMI), else widened
                // to BGRA 64 pixels at a time, straight into the gray row.
                x = kernels.lumaThreeByte(s, d, input.width)
                if x == 0 {
                    x = PortableKernels.forEachOpaqueChunk(s, input.width, kernels) { chunk, x, n in
                        kernels.luma(UnsafeRawPointer(chunk), UnsafeMutableRawPointer(d + x), n)
                    }
                }
            }
            while x < input.width {
                let p = x * step
                d[x] = UInt8(truncatingIfNeeded: (Int32(s[p]) * wb + Int32(s[p + 1]) * wg + Int32(s[p + 2]) * wr + (1 << 13)) >> 14)
                x += 1
            }
        }
    }
}
