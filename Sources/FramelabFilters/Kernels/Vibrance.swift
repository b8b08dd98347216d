import FramelabCore
import FramelabKernels

/// Vibrance: saturation raised (or lowered) most where colour is weakest, as CIVibrance.
///
/// Definition, on 0…255 values: s = (max − min) / 255, y = luma, k = 1 + amount·(1 − s),
/// out = y + (c − y)·k. Gray pixels stay gray; saturated pixels barely move. Per pixel;
/// it does not compose with its neighbours. OpenCV has no such operation.
struct Vibrance: PerPixelOperation, PlainOperation {
    let amount: Double

    var fusion: Fusion { .perPixel(self) }
    var planLabel: String { "vibrance" }
    var missingOpenCVReason: String? { "OpenCV has no vibrance operation" }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        sameColorShape(format, width, height)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws { throw noOpenCV() }

    func applyScalar(_ input: Mat, into output: Mat) {
        let step = input.format.bytesPerPixel
        forEachRowPair(input, output) { s, d in
            for x in 0..<input.width {
                let p = x * step
                let b = Double(s[p]), g = Double(s[p + 1]), r = Double(s[p + 2])
                let sat = (max(r, g, b) - min(r, g, b)) / 255
                let y = 0.299 * r + 0.587 * g + 0.114 * b
                let k = 1 + amount * (1 - sat)
                d[p] = clampToByte(y + (b - y) * k)
                d[p + 1] = clampToByte(y + (g - y) * k)
                d[p + 2] = clampToByte(y + (r - y) * k)
                if step == 4 { d[p + 3] = s[p + 3] }
            }
        }
    }

    /// SIMD: the level's `vibrance` (luma at 6 fractional bits, k at 12, its slope kept at
    /// 20 bits, so the quantisation error stays below 0.02 of a level), then a scalar tail
    /// in the same fixed point.
    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
        let step = input.format.bytesPerPixel
        let kAmount = Int32((amount * 4096 * 256 / 255).rounded())
        forEachRowPair(input, output, rows: rows) { s, d in
            var x = 0
            if step == 4 {
                x = kernels.vibrance(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), input.width, kAmount)
            } else if step == 3 {
                // Straight from the three-byte pixels where the level has the loop, else
                // through the BGRA loop, 64 pixels at a time (alpha plays no part).
                x = kernels.vibranceThreeByte(s, d, input.width, kAmount)
                if x == 0 {
                    x = PortableKernels.throughBGRA(s, d, input.width, kernels) { kernels.vibrance($0, $1, $2, kAmount) }
                }
            }
            while x < input.width {
                let p = x * step
                let b = Int32(s[p]), g = Int32(s[p + 1]), r = Int32(s[p + 2])
                let y6 = (b * Luma.wb + g * Luma.wg + r * Luma.wr + 128) >> 8
                let k = 4096 + ((kAmount * (255 - (max(r, g, b) - min(r, g, b))) + 128) >> 8)
                func channel(_ c: Int32) -> UInt8 { UInt8(clamping: (y6 * 4096 + (1 << 17) + ((c << 6) - y6) * k) >> 18) }
                (d[p], d[p + 1], d[p + 2]) = (channel(b), channel(g), channel(r))
                if step == 4 { d[p + 3] = s[p + 3] }
                x += 1
            }
        }
    }
}
