/// Shrinks gray8 images with bilinear interpolation computed the way OpenCV's bit-exact
/// `INTER_LINEAR_EXACT` resize does (the one CascadeClassifier uses for its pyramid), so
/// the pyramid — and so every feature value — matches OpenCV's:
/// source coordinate `(d + 0.5) * src / dst - 0.5`, weights rounded to 8 fractional
/// bits, a horizontal pass into 8.8 fixed point, a vertical pass into 16.16, rounded.
/// Coordinates left of the first or right of the last source pixel take that pixel.
struct BilinearResizer {
    /// Per destination coordinate: the first source index and the weight (0…256) of the second.
    struct Taps {
        var index: [Int32] = []
        var weight: [Int32] = []
    }

    static func taps(source: Int, destination: Int) -> Taps {
        var taps = Taps()
        taps.index.reserveCapacity(destination)
        taps.weight.reserveCapacity(destination)
        let inverse = Double(destination) / Double(source)
        let scale = 1.0 / inverse
        for d in 0..<destination {
            let f = scale * (Double(d) + 0.5) - 0.5
            let i = Int(f.rounded(.down))
            if i < 0 {
                taps.index.append(0); taps.weight.append(0)
            } else if i >= source - 1 {
                taps.index.append(Int32(source - 1)); taps.weight.append(0)
            } else {
                let w = Int32(((f - Double(i)) * 256).rounded(.toNearestOrEven))
                taps.index.append(Int32(i)); taps.weight.append(w)
            }
        }
        return taps
    }

    private var rowA: [Int32] = []
    private var rowB: [Int32] = []

    /// Resizes `src` (rows `srcStride` bytes apart) into `dst` (`dstWidth` x `dstHeight`, contiguous).
    mutating func resize(_ src: UnsafePointer<UInt8>, width: Int, height: Int, stride srcStride: Int,
                         into dst: UnsafeMutablePointer<UInt8>, width dstWidth: Int, height dstHeight: Int) {
        if dstWidth == width && dstHeight == height {
            for y in 0..<height { (dst + y * dstWidth).update(from: src + y * srcStride, count: width) }
            return
        }
        let xt = Self.taps(source: width, destination: dstWidth)
        let yt = Self.taps(source: height, destination: dstHeight)
        if rowA.count < dstWidth { rowA = .init(repeating: 0, count: dstWidth); rowB = rowA }
        var rowAY = -1, rowBY = -1
        xt.index.withUnsafeBufferPointer { xi in
            xt.weight.withUnsafeBufferPointer { xw in
                rowA.withUnsafeMutableBufferPointer { a in
                    rowB.withUnsafeMutableBufferPointer { b in
                        var ha = a.baseAddress!, hb = b.baseAddress!
                        for dy in 0..<dstHeight {
                            let sy = Int(yt.index[dy]), wy = yt.weight[dy]
                            let sy1 = min(sy + 1, height - 1)
                            // Keep the two horizontally filtered rows we need (often reused).
                            if rowAY != sy {
                                if rowBY == sy { swap(&ha, &hb); swap(&rowAY, &rowBY) } else {
                                    Self.horizontal(src + sy * srcStride, xi, xw, ha, dstWidth); rowAY = sy
                                }
                            }
                            if wy != 0 && rowBY != sy1 {
                                Self.horizontal(src + sy1 * srcStride, xi, xw, hb, dstWidth); rowBY = sy1
                            }
                            let out = dst + dy * dstWidth
                            let w0 = 256 - wy
                            if wy == 0 {
                                for x in 0..<dstWidth { out[x] = UInt8(truncatingIfNeeded: (ha[x] * 256 + 32768) >> 16) }
                            } else {
                                for x in 0..<dstWidth {
                                    out[x] = UInt8(truncatingIfNeeded: (ha[x] * w0 + hb[x] * wy + 32768) >> 16)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func horizontal(_ row: UnsafePointer<UInt8>, _ xi: UnsafeBufferPointer<Int32>,
                                   _ xw: UnsafeBufferPointer<Int32>, _ out: UnsafeMutablePointer<Int32>, _ n: Int) {
        for x in 0..<n {
            let i = Int(xi[x]), w = xw[x]
            let p0 = Int32(row[i])
            out[x] = w == 0 ? p0 * 256 : p0 * (256 - w) + Int32(row[i + 1]) * w
        }
    }
}
