import FramelabCore
import FramelabCV
import Foundation

enum TestImages {
    /// Uniform noise, with rows padded so stride > row bytes.
    static func noise(_ format: PixelFormat, width: Int, height: Int, padding: Int = 8,
                      values: ClosedRange<UInt8> = 0...255, using rng: inout SplitMix64) -> Mat {
        let m = Mat(format: format, width: width, height: height, stride: width * format.bytesPerPixel + padding)
        for y in 0..<height { for x in 0..<width {
            m.setPixel(x: x, y: y, (0..<format.channels).map { _ in Double(UInt8.random(in: values, using: &rng)) })
        } }
        return m
    }

    /// A smooth image (gradients and slow waves): resampling paths with different
    /// sub-pixel precision agree closely on it, as they do on photographs.
    static func smooth(_ format: PixelFormat, width: Int, height: Int) -> Mat {
        let m = Mat(format: format, width: width, height: height, stride: width * format.bytesPerPixel + 4)
        for y in 0..<height { for x in 0..<width {
            let u = Double(x) / Double(max(width, 1)), v = Double(y) / Double(max(height, 1))
            let values = [255 * u, 255 * v, 127.5 + 120 * sin(6 * u + 4 * v), 200 + 55 * cos(3 * u)]
            m.setPixel(x: x, y: y, Array(values.prefix(format.channels)))
        } }
        return m
    }

    /// The largest sample difference of two same-shape images, where `mask` (gray8) is non-zero.
    static func maxAbsDifference(_ a: Mat, _ b: Mat, where mask: Mat?) -> Double {
        guard let mask else { return a.maxAbsDifference(to: b) }
        var worst = 0.0
        for y in 0..<a.height { for x in 0..<a.width where mask.pixel(x: x, y: y)[0] != 0 {
            for (p, q) in zip(a.pixel(x: x, y: y), b.pixel(x: x, y: y)) { worst = max(worst, abs(p - q)) }
        } }
        return worst
    }

    /// Photographs from Debian's opencv-doc (installed by scripts/setup.sh).
    static let photoPaths = ["/usr/share/doc/opencv-doc/examples/data/baboon.jpg",
                             "/usr/share/doc/opencv-doc/examples/data/fruits.jpg"]

    static func photo(_ path: String, format: PixelFormat) throws -> Mat {
        try ImageCodec.read(path, as: format)
    }
}
