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
    /// The same ×2^14 as integers summing to 16384 (made once, not per frame); ≤ 2^14, so
    /// each fits the Int16 lanes of the vector passes.
    let fixed: [Int32]
    var radius: Int { weights.count / 2 }

    init(sigma: Double) {
        self.sigma = sigma
        let r = max(0, Int((3 * sigma).rounded(.up)))
        let raw = (-r...r).map { sigma > 0 ? exp(-Double($0 * $0) / (2 * sigma * sigma)) : 1 }
        let total = raw.reduce(0, +)
        weights = raw.map { $0 / total }
        fixed = Self.fixedWeights(weights, total: 16384)
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
        // 2r + 4 slots of two rows of Int16 samples (`applyVector`).
        let fits = Self.ringBytes / (4 * (2 * radius + 4) * channels)
        // Narrow strips pay for their 2r padding columns; below 64 pixels not worth it.
        return min(width, max(64, fits))
    }

    /// SIMD, on 16-bit samples two taps at a time (`PortableKernels+Blur.swift`): weights
    /// ×2^14 in each pass, the horizontal result kept at 7 fractional bits (≤ 32640, an
    /// Int16). The image is done in strips of columns (`stripWidth`). In each, a source row
    /// (padded, edges repeated, where the strip's 2r + 1 taps reach past the image) is paired
    /// with itself one pixel on, (s[j], s[j + channels]), straight from its bytes, so the
    /// horizontal pass takes taps 2p and 2p + 1 in one multiply-add; its rows are
    /// paired with the next row into the ring's slots, so the vertical pass takes rows
    /// y − r − 1 + 2p and y − r + 2p in one (weights w[2p − 1], w[2p], with w[−1] = 0).
    /// `rows` of the output are produced. All working memory is in `scratch`, which the
    /// caller keeps across frames and does not share between threads.
    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, scratch: BlurScratch,
                     kernels: KernelTable = KernelLevel.currentTable) {
        let ch = input.format.channels, w = input.width, h = input.height, r = radius
        // 2r + 4 ring slots: four output rows at a time read slots y − r − 1 … y + r + 2.
        let ringCount = 2 * r + 1, count = r + 1, ringSlots = 2 * r + 4
        let strip = stripWidth(width: w, channels: ch), paddedPixels = strip + 2 * r + 1
        let rowLength = strip * ch + 16, slotLength = 2 * strip * ch + 32
        scratch.reserve(.init(padded: paddedPixels * ch + 16, pairs: 2 * (strip + 2 * r) * ch + 32, rows: 2 * rowLength,
                              ring: ringSlots * slotLength, weightPairs: count))
        let fixed = self.fixed
        func tap(_ k: Int) -> Int16 { k >= 0 && k < ringCount ? Int16(fixed[k]) : 0 }
        input.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
                guard let s = src.baseAddress?.assumingMemoryBound(to: UInt8.self),
                      let d = dst.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                scratch.withBuffers { b in
                    let horizontalWeights = b.weights, verticalWeights = b.weights + count
                    for p in 0..<count {
                        horizontalWeights[p] = Self.splat(tap(2 * p), tap(2 * p + 1))
                        verticalWeights[p] = Self.splat(tap(2 * p - 1), tap(2 * p))
                    }
                    // out[2i] = a[i], out[2i + 1] = c[i] for i < n.
                    func interleave(_ a: UnsafePointer<Int16>, _ c: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>, _ n: Int) {
                        var i = kernels.blurInterleave(a, c, out, n)
                        while i < n { out[2 * i] = a[i]; out[2 * i + 1] = c[i]; i += 1 }
                    }
                    // The horizontally blurred row sy of the strip: one of two, by parity.
                    func blurred(_ sy: Int) -> UnsafeMutablePointer<Int16> { b.rows + (sy & 1) * rowLength }
                    func slot(_ sy: Int) -> Int { (sy % ringSlots + ringSlots) % ringSlots * slotLength }
                    var x0 = 0
                    while x0 < w {
                        let sw = min(strip, w - x0), n = sw * ch
                        // Source columns x0 − r … x0 + sw + r of row `sy`: in the row itself when
                        // they are all inside the image, else copied with the edges repeated.
                        func taps(_ sy: Int) -> UnsafePointer<UInt8> {
                            let row = s + min(max(sy, 0), h - 1) * input.stride
                            if x0 >= r && x0 + sw + r < w { return row + (x0 - r) * ch }
                            let pb = b.padded, left = max(0, r - x0), inside = min(x0 + sw + r + 1, w) - max(x0 - r, 0)
                            for x in 0..<left { for c in 0..<ch { pb[x * ch + c] = row[c] } }
                            (pb + left * ch).update(from: row + max(x0 - r, 0) * ch, count: inside * ch)
                            for x in (left + inside)..<(sw + 2 * r + 1) { for c in 0..<ch { pb[x * ch + c] = row[(w - 1) * ch + c] } }
                            return UnsafePointer(pb)
                        }
                        // Horizontal pass of source row `sy`, columns x0..<x0+sw, into `blurred(sy)`.
                        func horizontal(_ sy: Int) {
                            let source = taps(sy), pairCount = (sw + 2 * r) * ch
                            var j = PortableKernels.blurPairBytes(source, ch, b.pairs, pairCount)
                            while j < pairCount { b.pairs[2 * j] = Int16(source[j]); b.pairs[2 * j + 1] = Int16(source[j + ch]); j += 1 }
                            let out = blurred(sy)
                            var i = kernels.blurHorizontal(b.pairs, out, n, ch, horizontalWeights, count)
                            while i < n {
                                var acc: Int32 = 0
                                for k in 0..<ringCount { acc += Int32(source[i + k * ch]) * fixed[k] }
                                out[i] = Int16((acc + 64) >> 7)
                                i += 1
                            }
                        }
                        // Ring slot sy: blurred rows sy and sy + 1 as pairs.
                        func pairUp(_ sy: Int) { interleave(blurred(sy), blurred(sy + 1), b.ring + slot(sy), n) }
                        // Blurs and pairs source rows up to `last` (each row once).
                        var built = rows.lowerBound - r - 1
                        horizontal(built)
                        func build(through last: Int) {
                            while built < last { built += 1; horizontal(built); pairUp(built - 1) }
                        }
                        // Output row y's slots (count, or count + 1 for y and y + 2 together).
                        func gather(_ y: Int, _ slots: Int) { for p in 0..<slots { b.slots[p] = slot(y - r - 1 + 2 * p) } }
                        func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { d + y * output.stride + x0 * ch }
                        // The bytes of output row y a vector entry left, from `i` on, with the ring slots
                        // of `gather(y, count)` starting at slots[from].
                        func tail(_ y: Int, _ from: Int, _ start: Int) {
                            let drow = row(y)
                            for i in start..<n {
                                var acc: Int32 = 0
                                for p in 0..<count {
                                    let pair = b.ring + b.slots[from + p] + 2 * i
                                    acc += Int32(pair[0]) * Int32(tap(2 * p - 1)) + Int32(pair[1]) * Int32(tap(2 * p))
                                }
                                drow[i] = UInt8(min(255, (acc + (1 << 20)) >> 21))
                            }
                        }
                        var y = rows.lowerBound
                        while y < rows.upperBound {
                            if y + 3 < rows.upperBound {
                                // Rows y, y + 2 and y + 1, y + 3 share all but one slot: one read for two rows.
                                build(through: y + 3 + r)
                                for top in [y, y + 1] {
                                    gather(top, count + 1)
                                    let done = kernels.blurVerticalTwo(b.ring, b.slots, verticalWeights, count, row(top), row(top + 2), n)
                                    tail(top, 0, done)
                                    tail(top + 2, 1, done)
                                }
                                y += 4
                            } else {
                                build(through: y + r)
                                gather(y, count)
                                tail(y, 0, kernels.blurVertical(b.ring, b.slots, verticalWeights, count, row(y), n))
                                y += 1
                            }
                        }
                        x0 += sw
                    }
                }
            }
        }
    }

    /// Sixteen Int16 lanes: `even` in the even ones, `odd` in the odd ones (a weight pair).
    static func splat(_ even: Int16, _ odd: Int16) -> SIMD16<Int16> {
        var v = SIMD16<Int16>(repeating: even)
        for j in stride(from: 1, to: 16, by: 2) { v[j] = odd }
        return v
    }

    /// Integer weights summing exactly to `total`: rounded, then the remainder given to
    /// the centre, so flat regions stay exactly flat.
    static func fixedWeights(_ weights: [Double], total: Int32) -> [Int32] {
        var fixed = weights.map { Int32(($0 * Double(total)).rounded()) }
        fixed[fixed.count / 2] += total - fixed.reduce(0, +)
        return fixed
    }
}
