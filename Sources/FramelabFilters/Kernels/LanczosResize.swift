import FramelabCore
import FramelabCV
import FramelabKernels

#if canImport(Glibc)
import Glibc
#endif

/// Core Image's Lanczos scale transform as a filter operation. Each output pixel depends
/// on a neighbourhood of input pixels whose size grows as the image shrinks, so in a recipe
/// it starts a pass, like the blur, and per-pixel steps after it fuse into that pass; it
/// never composes with the bilinear warps.
struct ResizeOperation: FilterOperation {
    /// What fixes the output size.
    enum Size: Sendable {
        /// Factors on width and height (CILanczosScaleTransform's scale × aspectRatio, scale).
        case scale(x: Double, y: Double)
        /// Sides in pixels; a nil side follows the input's aspect ratio.
        case exact(width: Int?, height: Int?)
    }

    let size: Size

    var fusion: Fusion { .neighbourhood }
    var planLabel: String { "Lanczos-3 resize (separable; widened when shrinking)" }

    /// The output size for an input size: rounded, at least one pixel a side.
    func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        func side(_ v: Double) -> Int { max(1, Int(v.rounded())) }
        switch size {
        case let .scale(x, y):
            return (side(Double(width) * x), side(Double(height) * y))
        case let .exact(w?, h?):
            return (w, h)
        case let .exact(w?, nil):
            return (w, side(Double(height) * Double(w) / Double(width)))
        case let .exact(nil, h?):
            return (side(Double(width) * Double(h) / Double(height)), h)
        case .exact(nil, nil):
            return (width, height)
        }
    }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        guard format != .grayF32 else { return nil }
        let out = outputSize(width: width, height: height)
        return (format, out.width, out.height)
    }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        let out = outputSize(width: input.width, height: input.height)
        return ResizeKernel(input: input, outputWidth: out.width, outputHeight: out.height, kernels: kernels)
    }
}

/// The Lanczos weights along one axis, from `input` samples to `output` samples. Output
/// sample o is centred at (o + 0.5)·input/output − 0.5 in input coordinates; when shrinking,
/// the kernel is stretched by input/output so it averages what it skips (no aliasing).
/// Taps outside the input repeat the edge sample (OpenCV's clamped indices).
struct LanczosAxis: Sendable {
    /// Lobes of the windowed sinc (Lanczos-3, Core Image's and most tools' choice).
    static let lobes = 3.0

    let taps: Int
    /// The first input index of each output sample (may lie outside 0..<input).
    let starts: [Int]
    /// `taps` normalised weights per output sample.
    let weights: [Double]

    init(input: Int, output: Int) {
        let ratio = Double(input) / Double(output)
        let stretch = max(ratio, 1)
        let support = Self.lobes * stretch
        taps = max(1, Int((2 * support).rounded(.up)))
        var starts: [Int] = [], weights: [Double] = []
        starts.reserveCapacity(output)
        weights.reserveCapacity(output * taps)
        for o in 0..<output {
            let centre = (Double(o) + 0.5) * ratio - 0.5
            let first = Int((centre - support).rounded(.down)) + 1
            let row = (0..<taps).map { Self.lanczos((Double(first + $0) - centre) / stretch) }
            let total = row.reduce(0, +)
            starts.append(first)
            weights += row.map { $0 / total }
        }
        self.starts = starts
        self.weights = weights
    }

    /// sinc(t)·sinc(t/3) on |t| < 3, else 0.
    static func lanczos(_ t: Double) -> Double {
        if t == 0 { return 1 }
        guard abs(t) < lobes else { return 0 }
        let p = Double.pi * t
        return lobes * sin(p) * sin(p / lobes) / (p * p)
    }
}

/// The resize's three paths for one input shape at one kernel level. The vector path does
/// each output row from the input in two steps — the rows it needs combined vertically
/// into one Float row, then that row resampled horizontally — so a band of rows needs
/// nothing from another band. Working memory: one Float row and one row-pointer list per
/// band, kept across frames.
final class ResizeKernel: OperationKernel {
    let inputWidth, inputHeight, outputWidth, outputHeight, channels: Int
    let x, y: LanczosAxis
    let kernels: KernelTable
    /// Float weights for the vector path.
    private let xWeights, yWeights: [Float]
    /// Per output pixel, the Float offset in the padded row of its first tap.
    private let xStarts: [Int32]
    /// Per output row, its taps' input rows, clamped into the image.
    private let yRows: [Int]
    /// Pixels of edge padding on the left and right of the Float row.
    private let padLeft, padRight: Int
    private var scratch: [(row: UnsafeMutablePointer<Float>, rows: UnsafeMutablePointer<UnsafePointer<UInt8>>)] = []

    init(input: ImageShape, outputWidth: Int, outputHeight: Int, kernels: KernelTable) {
        (inputWidth, inputHeight, channels) = (input.width, input.height, input.format.channels)
        (self.outputWidth, self.outputHeight) = (outputWidth, outputHeight)
        x = LanczosAxis(input: input.width, output: outputWidth)
        y = LanczosAxis(input: input.height, output: outputHeight)
        self.kernels = kernels
        xWeights = x.weights.map { Float($0) }
        yWeights = y.weights.map { Float($0) }
        padLeft = max(0, -(x.starts.min() ?? 0))
        padRight = max(0, (x.starts.max() ?? 0) + x.taps - input.width)
        let ch = input.format.channels, left = padLeft
        // The row is at most (input + 2·taps) pixels: the Int32 offsets fit (taps ≤ 6·input).
        xStarts = x.starts.map { Int32(truncatingIfNeeded: ($0 + left) * ch) }
        let h = input.height
        let yTaps = y.taps
        yRows = y.starts.flatMap { start in (0..<yTaps).map { min(max(start + $0, 0), h - 1) } }
        prepare(bands: 1)
    }

    deinit {
        for s in scratch {
            s.row.deallocate()
            s.rows.deallocate()
        }
    }

    /// Floats in the padded row, with one to spare for the 3-channel loads and a vector's
    /// worth for the vertical pass.
    private var rowFloats: Int { (padLeft + inputWidth + padRight) * channels + 16 }

    func prepare(bands: Int) {
        while scratch.count < bands {
            let row = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
            row.initialize(repeating: 0, count: rowFloats)
            let rows = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: y.taps)
            scratch.append((row, rows))
        }
    }

    /// The scalar reference: horizontal then vertical, in Double, the whole image.
    func applyScalar(_ input: Mat, into output: Mat) {
        let ch = channels, w = inputWidth, h = inputHeight, ow = outputWidth
        var horizontal = [Double](repeating: 0, count: ow * h * ch)
        input.withUnsafeBytes { src in
            guard let s = src.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for row in 0..<h {
                for o in 0..<ow {
                    for c in 0..<ch {
                        var sum = 0.0
                        for k in 0..<x.taps {
                            let sx = min(max(x.starts[o] + k, 0), w - 1)
                            sum += x.weights[o * x.taps + k] * Double(s[row * input.stride + sx * ch + c])
                        }
                        horizontal[(row * ow + o) * ch + c] = sum
                    }
                }
            }
        }
        output.withUnsafeMutableBytes { dst in
            guard let d = dst.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for o in 0..<outputHeight {
                for i in 0..<(ow * ch) {
                    var sum = 0.0
                    for k in 0..<y.taps {
                        let sy = min(max(y.starts[o] + k, 0), h - 1)
                        sum += y.weights[o * y.taps + k] * horizontal[sy * ow * ch + i]
                    }
                    d[o * output.stride + i] = clampToByte(sum)
                }
            }
        }
    }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        let (row, pointers) = scratch[band]
        let ch = channels, n = inputWidth * ch, taps = y.taps, xTaps = x.taps
        let body = row + padLeft * ch
        xWeights.withUnsafeBufferPointer { xw in
            yWeights.withUnsafeBufferPointer { yw in
                xStarts.withUnsafeBufferPointer { xs in
                    forEachOutputRow(input, output, rows: rows) { s, d, o in
                        for k in 0..<taps { pointers[k] = s + yRows[o * taps + k] * input.stride }
                        let w = yw.baseAddress! + o * taps
                        var i = kernels.resizeVertical(pointers, w, taps, body, n)
                        while i < n {
                            var sum: Float = 0
                            for k in 0..<taps { sum += Float(pointers[k][i]) * w[k] }
                            body[i] = sum
                            i += 1
                        }
                        // The edge pixels repeated into the padding.
                        for p in 0..<padLeft { for c in 0..<ch { row[p * ch + c] = body[c] } }
                        for p in 0..<padRight { for c in 0..<ch { body[n + p * ch + c] = body[n - ch + c] } }
                        var ox = kernels.resizeHorizontal(row, xs.baseAddress!, xw.baseAddress!, xTaps, d, outputWidth, ch)
                        while ox < outputWidth {
                            let first = row + Int(xs[ox]), wx = xw.baseAddress! + ox * xTaps
                            for c in 0..<ch {
                                var sum: Float = 0
                                for k in 0..<xTaps { sum += first[k * ch + c] * wx[k] }
                                d[ox * ch + c] = UInt8(max(0, min(255, (sum + 0.5).rounded(.down))))
                            }
                            ox += 1
                        }
                    }
                }
            }
        }
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try OpenCVFilters.resize(input, into: output, method: .lanczos4)
    }
}
