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

    /// A radial gradient's rows mirror about a centre on a half or whole pixel, computed as
    /// `renderVector` computes it.
    func rowMirror(height: Int) -> RowMirror? {
        guard case let .radialGradient(_, cy, _, _, _, _) = generator else { return nil }
        return RowMirror(sum: MirrorRows.mirrorSum(centre: Generator.centre(cy, of: height)), height: height)
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

    /// The gradient's centre on one axis in pixels, as the vector path computes it: the
    /// fraction times the size, in Float. The recipe's row mirror (`rowMirror`) pairs rows
    /// about this same value, so the rows it copies are the ones the path would compute.
    static func centre(_ fraction: Double, of size: Int) -> Float {
        Float(fraction * Double(size))
    }

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
    /// by the level's `fill` (the widest stores the level has), and a bgr8 or gray8 row
    /// copied from the call's first; a gradient's BGRA pixels come from the level's
    /// `gradientBGRA` (bgr8 rows made as BGRA and narrowed by the level's
    /// `narrowThreeByte`), the rest of a row (and gray8 rows) from the level's positions
    /// (`gradient`) and a scalar colour loop; rows and columns that mirror others already
    /// rendered are copied (`MirrorRows`, `MirrorColumns`).
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
            if ch == 4 {
                forEachOutputRow(output, output, rows: rows) { _, d, _ in
                    kernels.fill(UnsafeMutableRawPointer(d), output.width, word)
                }
                return
            }
            // bgr8 and gray8: the call's first row by doubling copies of its first pixel,
            // every other row a copy of it (from L1, so about the speed of the stores; a
            // byte loop over the channels took 6.7 ms on a 1080p bgr8 frame).
            let pixel = ch == 1 ? [bytes[2]] : Array(bytes.prefix(ch))
            let rowBytes = output.width * ch
            var first: UnsafeMutablePointer<UInt8>?
            forEachOutputRow(output, output, rows: rows) { _, d, _ in
                if let first {
                    d.update(from: first, count: rowBytes)
                } else {
                    fillByDoubling(d, rowBytes: rowBytes, pixel: pixel)
                    first = d
                }
            }
        case let .radialGradient(cx, cy, r0, r1, c0, c1):
            let from = c0.bgra.map { Float($0) }, delta = zip(c0.bgra, c1.bgra).map { Float($1 - $0) }
            let width = output.width
            let centre = (Self.centre(cx, of: width), Self.centre(cy, of: output.height))
            let row = GradientRow(colours: from + delta, centreX: centre.0, inner: Float(r0),
                                  span: Float(max(r1 - r0, 1e-9)), kernels: kernels)
            // Positions for the pixels the BGRA kernel leaves (all of a gray8 row);
            // `gradient` writes up to a multiple of 16.
            var ts = [Float](repeating: 0, count: max(16, (width + 15) / 16 * 16))
            // A bgr8 row is made as BGRA in `wide` (the level's gradientBGRA, the mirror's
            // four-lane copy) and narrowed into place by the level's narrowThreeByte: a
            // scalar colour loop over its three channels took 6.9 ms on a 1080p frame.
            var wide = [UInt32](repeating: 0, count: ch == 3 ? width : 0)
            let mirror = MirrorRows(centre: centre.1, rows: rows)
            let columns = MirrorColumns(centre: centre.0, width: width, enabled: mirrorColumns)
            wide.withUnsafeMutableBufferPointer { wb in
                ts.withUnsafeMutableBufferPointer { tb in
                    forEachOutputRow(output, output, rows: rows) { _, d, y in
                        if let above = mirror.partner(of: y) {
                            d.update(from: d - (y - above) * output.stride, count: width * ch)
                            return
                        }
                        let dy = Float(y) + 0.5 - centre.1
                        if ch == 3 {
                            let pixels = wb.baseAddress!
                            pixels.withMemoryRebound(to: UInt8.self, capacity: 4 * width) { bytes in
                                row.render(bytes, channels: 4, dy: dy, columns: columns, positions: tb.baseAddress!)
                            }
                            PortableKernels.narrowToThreeByte(pixels, d, width, kernels)
                        } else {
                            row.render(d, channels: ch, dy: dy, columns: columns, positions: tb.baseAddress!)
                        }
                    }
                }
            }
        }
    }
}

/// One row of a radial gradient in bgra8 (BGRA, the level's `gradientBGRA`) or gray8 (the
/// red component, from the level's positions `gradient`), columns mirrored as `columns` says.
private struct GradientRow {
    /// Inner colour B, G, R, A, then outer minus inner, on 0…255.
    let colours: [Float]
    let centreX, inner, span: Float
    let kernels: KernelTable

    func render(_ d: UnsafeMutablePointer<UInt8>, channels ch: Int, dy: Float, columns: MirrorColumns,
                positions: UnsafeMutablePointer<Float>) {
        colours.withUnsafeBufferPointer { cb in
            for part in columns.computed {
                // Pixels part.lowerBound... with the centre moved left by as much
                // (exact: mirrored columns have a centre on a half pixel).
                let start = part.lowerBound, d0 = d + start * ch
                let done = ch == 4
                    ? kernels.gradientBGRA(UnsafeMutableRawPointer(d0), part.count, centreX - Float(start), dy,
                                           inner, span, cb.baseAddress!) : 0
                guard done < part.count else { continue }
                kernels.gradient(positions, part.count - done, centreX - Float(start + done), dy, inner, span)
                for x in (start + done)..<part.upperBound {
                    let t = positions[x - start - done]
                    @inline(__always) func channel(_ c: Int) -> UInt8 {
                        UInt8(max(0, min(255, cb[c] + cb[4 + c] * t + 0.5)))
                    }
                    if ch == 1 {
                        d[x] = channel(2)
                    } else {
                        for c in 0..<ch { d[x * ch + c] = channel(c) }
                    }
                }
            }
            columns.copy(d, channels: ch)
        }
    }
}

/// Fills `rowBytes` bytes at `d` with `pixel` repeated: the first pixel stored, then the
/// filled part copied after itself until the row is full (a dozen copies for a 1080p row).
private func fillByDoubling(_ d: UnsafeMutablePointer<UInt8>, rowBytes: Int, pixel: [UInt8]) {
    let first = min(pixel.count, rowBytes)
    for i in 0..<first { d[i] = pixel[i] }
    var filled = first
    while filled < rowBytes {
        let n = min(filled, rowBytes - filled)
        (d + filled).update(from: d, count: n)
        filled += n
    }
}

/// Where a distance lies between two radii, 0…1.
@inline(__always)
func gradientPosition(_ distance: Double, _ r0: Double, _ r1: Double) -> Double {
    max(0, min(1, (distance - r0) / max(r1 - r0, 1e-9)))
}
