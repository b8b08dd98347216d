import FramelabCore
import FramelabCV
import FramelabKernels

/// Per-channel curves (gamma, exposure, toneCurve, highlightShadow) as a filter operation:
/// per pixel, consecutive curves fold into one table. The scalar reference and the byte-
/// table kernel are below; BGRA and bgr8 rows go through pair tables (`PairCurveTables`).
struct CurvesOperation: PerPixelOperation {
    let curves: ChannelCurves

    init(_ curves: ChannelCurves) { self.curves = curves }

    var fusion: Fusion { .perPixel(self) }
    var planLabel: String { "lookup table" }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        sameColorShape(format, width, height)
    }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        CurvesOperationKernel(curves, kernels: kernels)
    }

    func composed(after previous: any PerPixelOperation) -> (any PerPixelOperation)? {
        (previous as? CurvesOperation).map { CurvesOperation(curves.after($0.curves)) }
    }
}

/// The curves' three paths for one kernel level: BGRA and bgr8 (the formats curves take)
/// through pair tables (two lookups a pixel, built once here), any other format through
/// the byte tables.
final class CurvesOperationKernel: OperationKernel {
    let curves: ChannelCurves
    let pairs: PairCurveTables
    let kernels: KernelTable

    init(_ curves: ChannelCurves, kernels: KernelTable) {
        self.curves = curves
        self.kernels = kernels
        pairs = PairCurveTables(curves)
    }

    func applyScalar(_ input: Mat, into output: Mat) { curves.applyScalar(input, into: output) }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        switch input.format {
        case .bgra8: pairs.apply(input, into: output, rows: rows, kernels: kernels)
        case .bgr8: pairs.applyThreeByte(input, into: output, rows: rows, kernels: kernels)
        default: curves.applyTables(input, into: output, rows: rows)
        }
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws { try curves.applyOpenCV(input, into: output) }
}

/// A per-channel tone curve on R, G and B (alpha kept): the definition is a function of a
/// 0…255 value, and the fast paths use the same function sampled into 256-entry tables.
public struct ChannelCurves: Sendable {
    /// Curves in memory order B, G, R, each mapping 0…255 to 0…255 (unclamped Double).
    public let functions: [@Sendable (Double) -> Double]
    /// The functions rounded and clamped at 0…255, in memory order B, G, R.
    public let tables: [[UInt8]]
    /// The same as 32-bit words already shifted to their byte in a BGRA pixel (B, then G
    /// << 8, then R << 16; 3 x 256 entries), so a pixel is three loads OR-ed together.
    let packedTables: [UInt32]
    /// The three tables one after the other (B, G, R; 768 bytes), as the levels'
    /// `curve` and `curveThreeByte` take them.
    let byteTables: [UInt8]

    public init(blue: @escaping @Sendable (Double) -> Double, green: @escaping @Sendable (Double) -> Double,
                red: @escaping @Sendable (Double) -> Double) {
        functions = [blue, green, red]
        tables = functions.map { f in (0..<256).map { clampToByte(f(Double($0))) } }
        packedTables = tables.enumerated().flatMap { c, table in table.map { UInt32($0) << (8 * c) } }
        byteTables = tables.flatMap { $0 }
    }

    /// The same curve on all three channels.
    public init(_ f: @escaping @Sendable (Double) -> Double) {
        self.init(blue: f, green: f, red: f)
    }

    /// `self` applied after `first`, composed in Double precision (one rounding, not two),
    /// with the intermediate clamped to 0…255 as an eager chain of two passes would.
    public func after(_ first: ChannelCurves) -> ChannelCurves {
        let f = functions, g = first.functions
        return ChannelCurves(blue: { f[0](clamp255(g[0]($0))) }, green: { f[1](clamp255(g[1]($0))) },
                             red: { f[2](clamp255(g[2]($0))) })
    }

    /// The scalar reference: evaluates the curve functions for every sample.
    public func applyScalar(_ input: Mat, into output: Mat) {
        let step = input.format.bytesPerPixel
        forEachRowPair(input, output) { s, d in
            for x in 0..<input.width {
                let p = x * step
                for c in 0..<3 { d[p + c] = clampToByte(functions[c](Double(s[p + c]))) }
                if step == 4 { d[p + 3] = s[p + 3] }
            }
        }
    }

    /// The OpenCV reference: `cv::LUT` with the three tables (alpha through an identity).
    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        let identity = (0..<256).map { UInt8($0) }
        try OpenCVFilters.lookUp(input, into: output, tables: Array((tables + [identity]).prefix(input.format.channels)))
    }

    /// The fast path: three table lookups per pixel, one 32-bit load and store per BGRA
    /// pixel (x86 has no byte gather, so lookups stay scalar).
    func applyTables(_ input: Mat, into output: Mat, rows: Range<Int>) {
        if input.format == .bgra8 {
            packedTables.withUnsafeBufferPointer { t in
                let t = t.baseAddress!
                forEachRowPair(input, output, rows: rows) { s, d in
                    lookUpRowBGRA(s: UnsafeRawPointer(s), d, from: 0, to: input.width, t)
                }
            }
            return
        }
        tables[0].withUnsafeBufferPointer { tb in
            tables[1].withUnsafeBufferPointer { tg in
                tables[2].withUnsafeBufferPointer { tr in
                    let b = tb.baseAddress!, g = tg.baseAddress!, r = tr.baseAddress!
                    forEachRowPair(input, output, rows: rows) { s, d in
                        lookUpRow(s, d, width: input.width, step: input.format.bytesPerPixel, b, g, r)
                    }
                }
            }
        }
    }
}

/// One BGRA row through the packed tables (B, G << 8, R << 16, 256 words each): per pixel
/// one load, three lookups OR-ed with the kept alpha, one store. Indices are masked to
/// 0…255, so no bounds check is needed; the pointers are valid for the call.
@inline(__always)
func lookUpRowBGRA(s src: UnsafeRawPointer, _ d: UnsafeMutablePointer<UInt8>, from start: Int, to width: Int,
                   _ t: UnsafePointer<UInt32>) {
    let dst = UnsafeMutableRawPointer(d)
    let tg = t + 256, tr = t + 512
    var x = start
    while x < width {
        let p = (src + 4 &* x).loadUnaligned(as: UInt32.self)
        let out = t[Int(p & 0xFF)] | tg[Int((p &>> 8) & 0xFF)] | tr[Int((p &>> 16) & 0xFF)] | (p & 0xFF00_0000)
        (dst + 4 &* x).storeBytes(of: out, as: UInt32.self)
        x &+= 1
    }
}

/// One row through three tables; the tables are plain pointers valid for the call.
@inline(__always)
func lookUpRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, width: Int, step: Int,
               _ b: UnsafePointer<UInt8>, _ g: UnsafePointer<UInt8>, _ r: UnsafePointer<UInt8>) {
    if step == 4 {
        // Two pixels per step from one 64-bit load: fewer loads and loop overheads, and the
        // six independent lookups keep both load ports busy.
        var sp = UnsafeRawPointer(s), dp = UnsafeMutableRawPointer(d)
        var left = width
        while left >= 2 {
            let v = sp.loadUnaligned(as: UInt64.self)
            let lo = UInt64(b[Int(truncatingIfNeeded: v & 0xFF)]) | UInt64(g[Int(truncatingIfNeeded: (v &>> 8) & 0xFF)]) &<< 8
                | UInt64(r[Int(truncatingIfNeeded: (v &>> 16) & 0xFF)]) &<< 16
            let hi = UInt64(b[Int(truncatingIfNeeded: (v &>> 32) & 0xFF)]) &<< 32 | UInt64(g[Int(truncatingIfNeeded: (v &>> 40) & 0xFF)]) &<< 40
                | UInt64(r[Int(truncatingIfNeeded: (v &>> 48) & 0xFF)]) &<< 48
            dp.storeBytes(of: lo | hi | (v & 0xFF00_0000_FF00_0000), as: UInt64.self)
            sp += 8
            dp += 8
            left &-= 2
        }
        if left == 1 {
            let v = sp.loadUnaligned(as: UInt32.self)
            let out = UInt32(b[Int(v & 0xFF)]) | UInt32(g[Int((v >> 8) & 0xFF)]) << 8
                | UInt32(r[Int((v >> 16) & 0xFF)]) << 16 | (v & 0xFF00_0000)
            dp.storeBytes(of: out, as: UInt32.self)
        }
    } else {
        for x in 0..<width {
            let p = 3 * x
            d[p] = b[Int(s[p])]
            d[p + 1] = g[Int(s[p + 1])]
            d[p + 2] = r[Int(s[p + 2])]
        }
    }
}

@inline(__always)
func clamp255(_ v: Double) -> Double { max(0, min(255, v)) }
