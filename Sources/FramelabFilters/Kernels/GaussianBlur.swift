import FramelabCore
import FramelabCV
import FramelabKernels

#if canImport(Glibc)
import Glibc
#endif

/// The Gaussian blur as a filter operation: a neighbourhood, so in a recipe it starts a
/// pass and runs a whole band at a time (its ring of rows spans the band).
struct GaussianBlurOperation: FilterOperation {
    let sigma: Double

    var fusion: Fusion { .neighbourhood }
    var planLabel: String { "gaussian blur σ=\(sigma) (separable)" }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        format == .grayF32 ? nil : (format, width, height)
    }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        GaussianBlurKernel(GaussianBlur(sigma: sigma), kernels: kernels)
    }
}

/// The blur's three paths for one kernel level, with its working memory: one scratch per
/// band, kept across frames.
final class GaussianBlurKernel: OperationKernel {
    let blur: GaussianBlur
    let kernels: KernelTable
    let scratch = ScratchPool()

    init(_ blur: GaussianBlur, kernels: KernelTable) {
        self.blur = blur
        self.kernels = kernels
        scratch.prepare(bands: 1)
    }

    func applyScalar(_ input: Mat, into output: Mat) { blur.applyScalar(input, into: output) }

    func prepare(bands: Int) { scratch.prepare(bands: bands) }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        blur.applyVector(input, into: output, rows: rows, scratch: scratch.scratch(band: band), kernels: kernels)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try OpenCVFilters.gaussianBlur(input, into: output, radius: blur.radius, sigma: blur.sigma)
    }
}

/// Separable Gaussian blur with standard deviation `sigma` (Core Image's radius), kernel
/// half-width ceil(3σ), edges repeated (OpenCV's BORDER_REPLICATE). All channels, alpha too.
struct GaussianBlur: Sendable {
    let sigma: Double
    /// Normalised weights for offsets −r…r.
    let weights: [Double]
    /// The same ×2^12 as integers summing to 4096 (made once, not per frame).
    let fixed: [Int32]
    var radius: Int { weights.count / 2 }

    init(sigma: Double) {
        self.sigma = sigma
        let r = max(0, Int((3 * sigma).rounded(.up)))
        let raw = (-r...r).map { sigma > 0 ? exp(-Double($0 * $0) / (2 * sigma * sigma)) : 1 }
        let total = raw.reduce(0, +)
        weights = raw.map { $0 / total }
        fixed = Self.fixedWeights(weights, total: 4096)
    }

    /// The scalar reference: two passes in Double.
    func applyScalar(_ input: Mat, into output: Mat) {
        let ch = input.format.channels, w = input.width, h = input.height, r = radius
        var horizontal = [Double](repeating: 0, count: w * h * ch)
        input.withUnsafeBytes { src in
            guard let s = src.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<ch {
                        var sum = 0.0
                        for k in -r...r { sum += weights[k + r] * Double(s[y * input.stride + min(max(x + k, 0), w - 1) * ch + c]) }
                        horizontal[(y * w + x) * ch + c] = sum
                    }
                }
            }
        }
        output.withUnsafeMutableBytes { dst in
            guard let d = dst.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in 0..<h {
                for i in 0..<(w * ch) {
                    var sum = 0.0
                    for k in -r...r { sum += weights[k + r] * horizontal[min(max(y + k, 0), h - 1) * w * ch + i] }
                    d[y * output.stride + i] = clampToByte(sum)
                }
            }
        }
    }

    /// The ring of horizontally blurred rows a strip of columns keeps, at most (bytes):
    /// about half of a 512 KB L2 cache, so the vertical pass, which reads every ring row
    /// for every output row, reads from L2 and not from L3.
    static let ringBytes = 256 * 1024

    /// Pixels per strip of columns for this blur on rows of `width` pixels of `channels`.
    func stripWidth(width: Int, channels: Int) -> Int {
        let ringCount = 2 * radius + 1
        let fits = Self.ringBytes / (4 * ringCount * channels)
        // Narrow strips pay for their 2r padding columns; below 64 pixels not worth it.
        return min(width, max(64, fits))
    }

    /// SIMD: weights ×2^12 in each pass, the horizontal result kept at 8 fractional bits
    /// so the vertical products fit Int32; the horizontal pass reads
    /// neighbours `channels` bytes apart, so eight consecutive samples make one vector
    /// whatever the format. The image is done in strips of columns (`stripWidth`); in each,
    /// rows are blurred horizontally into a ring of 32-bit rows, then combined vertically;
    /// `rows` of the output are produced. All working memory is in `scratch`, which the
    /// caller keeps across frames and does not share between threads.
    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, scratch: BlurScratch,
                     kernels: KernelTable = KernelLevel.currentTable) {
        typealias V = SIMD8<Int32>
        let ch = input.format.channels, w = input.width, h = input.height, r = radius
        let ringCount = 2 * r + 1
        let strip = stripWidth(width: w, channels: ch)
        let stride = strip * ch + 8
        let taps = fixed.count
        // Padded source strip (r pixels each side, edges repeated), as Int32; the ring of rows.
        scratch.reserve(padded: (strip + 2 * r) * ch + 8, ring: ringCount * stride, taps: taps)
        input.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
                guard let s = src.baseAddress?.assumingMemoryBound(to: UInt8.self),
                      let d = dst.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                fixed.withUnsafeBufferPointer { fixedBuffer in
                    scratch.withBuffers { pb, rb, splat, rowsOf in
                        let fixed = fixedBuffer.baseAddress!
                        for k in 0..<taps { splat[k] = V(repeating: fixed[k]) }
                        var x0 = 0
                        while x0 < w {
                            let sw = min(strip, w - x0), n = sw * ch
                            // Horizontal pass of source row `sy`, columns x0..<x0+sw, into ring slot sy mod ringCount.
                            func horizontal(_ sy: Int) {
                                let row = s + min(max(sy, 0), h - 1) * input.stride
                                // Source columns x0 − r ..< x0 + sw + r widened to Int32: the columns inside
                                // the image in one contiguous loop (vectorised), the repeated edges one by one.
                                let left = max(0, r - x0), inside = min(x0 + sw + r, w) - max(x0 - r, 0)
                                for x in 0..<left { for c in 0..<ch { pb[x * ch + c] = Int32(row[c]) } }
                                let from = row + max(x0 - r, 0) * ch, to = pb + left * ch
                                for j in 0..<(inside * ch) { to[j] = Int32(from[j]) }
                                for x in (left + inside)..<(sw + 2 * r) { for c in 0..<ch { pb[x * ch + c] = Int32(row[(w - 1) * ch + c]) } }
                                let out = rb + ((sy % ringCount + ringCount) % ringCount) * stride
                                var i = kernels.blurHorizontal(pb, out, n, ch, splat, taps)
                                while i < n {
                                    var acc: Int32 = 0
                                    for k in 0..<taps { acc += pb[i + k * ch] * fixed[k] }
                                    out[i] = (acc + 8) >> 4
                                    i += 1
                                }
                            }
                            for sy in (rows.lowerBound - r)..<(rows.lowerBound + r) { horizontal(sy) }
                            for y in rows {
                                horizontal(y + r)
                                let drow = d + y * output.stride + x0 * ch
                                // The ring rows this output row combines, oldest first, found once per row.
                                for k in 0..<taps { rowsOf[k] = ((y - r + k) % ringCount + ringCount) % ringCount * stride }
                                var i = kernels.blurVertical(rb, rowsOf, splat, taps, drow, n)
                                while i < n {
                                    var acc: Int32 = 0
                                    for k in 0..<taps { acc += rb[rowsOf[k] + i] * fixed[k] }
                                    drow[i] = UInt8(min(255, (acc + (1 << 19)) >> 20))
                                    i += 1
                                }
                            }
                            x0 += sw
                        }
                    }
                }
            }
        }
    }

    /// Integer weights summing exactly to `total`: rounded, then the remainder given to
    /// the centre, so flat regions stay exactly flat.
    static func fixedWeights(_ weights: [Double], total: Int32) -> [Int32] {
        var fixed = weights.map { Int32(($0 * Double(total)).rounded()) }
        fixed[fixed.count / 2] += total - fixed.reduce(0, +)
        return fixed
    }
}
