import FramelabCore
import FramelabCV
import FramelabKernels

/// An RGBA colour with components 0…1 (Core Image's convention), straight alpha.
public struct RGBAColor: Sendable, Equatable {
    public var r, g, b, a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) { (self.r, self.g, self.b, self.a) = (r, g, b, a) }

    /// Samples in memory order B, G, R, A on the 0…255 scale.
    var bgra: [Double] { [b * 255, g * 255, r * 255, a * 255] }
}

/// A generator as a filter operation: the input's size and format (bgra8 or bgr8), its
/// pixels ignored; in a recipe it starts a pass.
struct GeneratorOperation: PlainOperation {
    let generator: Generator

    init(_ generator: Generator) { self.generator = generator }

    var fusion: Fusion { .generator }
    var planLabel: String { "generate" }

    var missingOpenCVReason: String? {
        if case .radialGradient = generator { return "OpenCV has no radial gradient generator" }
        return nil
    }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        sameColorShape(format, width, height)
    }

    func applyScalar(_ input: Mat, into output: Mat) { generator.renderScalar(into: output) }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
        generator.renderVector(into: output, rows: rows, kernels: kernels)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        guard case .constantColor(let color) = generator else { throw noOpenCV() }
        try output.openCVFill(x: 0, y: 0, width: output.width, height: output.height,
                              value: Array(color.bgra.prefix(output.format.channels)))
    }
}

/// Images made from parameters alone (they ignore the input's pixels, keep its size).
public enum Generator: Sendable, Equatable {
    case constantColor(RGBAColor)
    /// Colour 0 inside radius0 (pixels) around the centre (fractions of width and height),
    /// colour 1 beyond radius1, linear in between.
    case radialGradient(centerX: Double, centerY: Double, radius0: Double, radius1: Double,
                        color0: RGBAColor, color1: RGBAColor)

    /// The scalar reference, in Double, for bgra8, bgr8 (alpha dropped) or gray8 (the red
    /// component, for masks).
    func renderScalar(into output: Mat) {
        let ch = output.format.channels
        forEachOutputRow(output, output, rows: 0..<output.height) { _, d, y in
            for x in 0..<output.width {
                let v = value(x: x, y: y, width: output.width, height: output.height)
                if ch == 1 {
                    d[x] = clampToByte(v[2])
                } else {
                    for c in 0..<ch { d[x * ch + c] = clampToByte(v[c]) }
                }
            }
        }
    }

    private func value(x: Int, y: Int, width: Int, height: Int) -> [Double] {
        switch self {
        case .constantColor(let color):
            return color.bgra
        case let .radialGradient(cx, cy, r0, r1, c0, c1):
            let dx = Double(x) + 0.5 - cx * Double(width), dy = Double(y) + 0.5 - cy * Double(height)
            let t = gradientPosition((dx * dx + dy * dy).squareRoot(), r0, r1)
            return zip(c0.bgra, c1.bgra).map { $0 + ($1 - $0) * t }
        }
    }

    /// The vector path: a constant colour is one 32-bit pattern stored along each BGRA row
    /// by the level's `fill` (the widest stores the level has); a
    /// gradient's BGRA pixels come from the level's `gradientBGRA`, the rest of a row (and
    /// bgr8 and gray8 rows) from the level's positions (`gradient`) and a scalar colour loop;
    /// rows and columns that mirror others already rendered are copied (`MirrorRows`,
    /// `MirrorColumns`).
    /// `mirrorColumns: false` computes every column (tests compare the two).
    func renderVector(into output: Mat, rows: Range<Int>, kernels: KernelTable = KernelLevel.currentTable,
                      mirrorColumns: Bool = true) {
        let ch = output.format.channels
        switch self {
        case .constantColor(let color):
            let bytes = color.bgra.map { clampToByte($0) }
            let word = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
            if ch == 4 && output.stride == 4 * output.width {
                // Rows back to back: one fill for all of them (a 1080p frame is about 0.2 ms
                // of stores, where a call per row would add a few percent).
                output.withUnsafeMutableBytes { dst in
                    guard let base = dst.baseAddress, !rows.isEmpty else { return }
                    kernels.fill(base + rows.lowerBound * output.stride, rows.count * output.width, word)
                }
                return
            }
            forEachOutputRow(output, output, rows: rows) { _, d, _ in
                if ch == 4 {
                    kernels.fill(UnsafeMutableRawPointer(d), output.width, word)
                } else {
                    for x in 0..<output.width { for c in 0..<ch { d[x * ch + c] = bytes[ch == 1 ? 2 : c] } }
                }
            }
        case let .radialGradient(cx, cy, r0, r1, c0, c1):
            let from = c0.bgra.map { Float($0) }, delta = zip(c0.bgra, c1.bgra).map { Float($1 - $0) }
            let colours = from + delta
            let width = output.width
            let centre = (Float(cx * Double(width)), Float(cy * Double(output.height)))
            let inner = Float(r0), span = Float(max(r1 - r0, 1e-9))
            // Positions for the pixels the BGRA kernel leaves (all of a bgr8 or gray8 row);
            // `gradient` writes up to a multiple of 16.
            var ts = [Float](repeating: 0, count: max(16, (width + 15) / 16 * 16))
            let mirror = MirrorRows(centre: centre.1, rows: rows)
            let columns = MirrorColumns(centre: centre.0, width: width, enabled: mirrorColumns)
            colours.withUnsafeBufferPointer { cb in
                ts.withUnsafeMutableBufferPointer { tb in
                    forEachOutputRow(output, output, rows: rows) { _, d, y in
                        if let above = mirror.partner(of: y) {
                            d.update(from: d - (y - above) * output.stride, count: width * ch)
                            return
                        }
                        let dy = Float(y) + 0.5 - centre.1
                        for part in columns.computed {
                            // Pixels part.lowerBound... with the centre moved left by as much
                            // (exact: mirrored columns have a centre on a half pixel).
                            let start = part.lowerBound, d0 = d + start * ch
                            let done = ch == 4
                                ? kernels.gradientBGRA(UnsafeMutableRawPointer(d0), part.count, centre.0 - Float(start), dy,
                                                       inner, span, cb.baseAddress!) : 0
                            guard done < part.count else { continue }
                            kernels.gradient(tb.baseAddress!, part.count - done, centre.0 - Float(start + done), dy, inner, span)
                            for x in (start + done)..<part.upperBound {
                                let t = tb[x - start - done]
                                if ch == 1 {
                                    d[x] = UInt8(max(0, min(255, from[2] + delta[2] * t + 0.5)))
                                } else {
                                    for c in 0..<ch { d[x * ch + c] = UInt8(max(0, min(255, from[c] + delta[c] * t + 0.5))) }
                                }
                            }
                        }
                        columns.copy(d, channels: ch)
                    }
                }
            }
        }
    }
}

/// Where a distance lies between two radii, 0…1.
@inline(__always)
func gradientPosition(_ distance: Double, _ r0: Double, _ r1: Double) -> Double {
    max(0, min(1, (distance - r0) / max(r1 - r0, 1e-9)))
}
