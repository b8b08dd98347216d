#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Mat {
    /// A sub-rectangle that shares this image's pixels (no copy).
    public func view(x: Int, y: Int, width: Int, height: Int) -> Mat {
        precondition(x >= 0 && y >= 0 && width >= 0 && height >= 0
                     && x + width <= self.width && y + height <= self.height,
                     "view (\(x), \(y), \(width)x\(height)) is outside \(self.width)x\(self.height)")
        return Mat(format: format, width: width, height: height, stride: stride, storage: storage,
                   offset: offset + y * stride + x * format.bytesPerPixel)
    }

    /// A deep copy with contiguous rows.
    public func clone() -> Mat {
        let copy = Mat(format: format, width: width, height: height)
        copy.copyPixels(from: self)
        return copy
    }

    /// Copies pixels row by row from `source`, which must have the same shape.
    public func copyPixels(from source: Mat) {
        precondition(hasSameShape(as: source), "copyPixels: shapes differ")
        let dst = storage.base + offset
        let src = source.storage.base + source.offset
        if isContiguous && source.isContiguous {
            dst.copyMemory(from: src, byteCount: spanBytes)
            return
        }
        for y in 0..<height {
            (dst + y * stride).copyMemory(from: src + y * source.stride, byteCount: rowBytes)
        }
    }

    /// Fills every sample of every pixel with the given channel values.
    public func fill(_ values: [Double]) {
        precondition(values.count == format.channels, "expected \(format.channels) channel values")
        for y in 0..<height {
            for x in 0..<width { setPixel(x: x, y: y, values) }
        }
    }

    /// True when both images have the same shape and the same pixel values (padding ignored).
    public func hasSamePixels(as other: Mat) -> Bool {
        guard hasSameShape(as: other) else { return false }
        let a = storage.base + offset
        let b = other.storage.base + other.offset
        for y in 0..<height where memcmp(a + y * stride, b + y * other.stride, rowBytes) != 0 {
            return false
        }
        return true
    }

    /// The largest absolute difference between corresponding samples of two same-shape images.
    public func maxAbsDifference(to other: Mat) -> Double {
        precondition(hasSameShape(as: other), "maxAbsDifference: shapes differ")
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x: x, y: y), q = other.pixel(x: x, y: y)
                for c in 0..<p.count { worst = max(worst, abs(p[c] - q[c])) }
            }
        }
        return worst
    }
}
