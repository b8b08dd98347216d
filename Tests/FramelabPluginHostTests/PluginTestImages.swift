import FramelabCore

/// Deterministic test images.
enum PluginTestImages {
    /// A BGRA gradient with varying alpha, so every channel carries information.
    static func gradient(width: Int = 640, height: Int = 480, format: PixelFormat = .bgra8) -> Mat {
        let m = Mat(format: format, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let all = [Double((x + y) % 256), Double(x % 256), Double(y % 256), Double((x * 3) % 256)]
                m.setPixel(x: x, y: y, Array(all.prefix(format.channels)))
            }
        }
        return m
    }

    /// What the example `invert` plugin computes for `amount` (its integer arithmetic).
    static func inverted(_ image: Mat, amount: Double) -> Mat {
        let out = Mat(format: image.format, width: image.width, height: image.height)
        let a = Int(amount * 256 + 0.5)  // as the plugin's C: (int)(amount * 256.0 + 0.5)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                out.setPixel(x: x, y: y, p.enumerated().map { c, v in
                    if image.format.channels == 4 && c == 3 { return v }
                    let i = Int(v)
                    return Double(i + (((255 - 2 * i) * a) >> 8))
                })
            }
        }
        return out
    }
}
