#if canImport(Glibc)
import Glibc
#endif

/// The curve-family built-ins as functions of a 0…255 value.
public enum ToneCurves {
    /// Exposure in stops, applied in linear light (sRGB decoded, scaled by 2^ev, re-encoded).
    public static func exposure(ev: Double) -> @Sendable (Double) -> Double {
        let gain = pow(2, ev)
        return { v in SRGB.encode(SRGB.decode(v / 255) * gain) * 255 }
    }

    /// value^power on the 0…1 scale (CIGammaAdjust).
    public static func gamma(power: Double) -> @Sendable (Double) -> Double {
        { v in pow(v / 255, power) * 255 }
    }

    /// Lifts shadows by `shadow` (−1…1) and pulls highlights down as `highlight` goes from
    /// 1 (unchanged) to 0, with smooth weights x(1−x)² and x²(1−x) (×27/4 so each peaks at 1).
    /// A global curve: Core Image's version also looks at the neighbourhood.
    public static func highlightShadow(highlight: Double, shadow: Double) -> @Sendable (Double) -> Double {
        { v in
            let x = v / 255
            let lift = shadow * x * (1 - x) * (1 - x) * 27 / 4 * 0.25
            let pull = (1 - highlight) * x * x * (1 - x) * 27 / 4 * 0.25
            return (x + lift - pull) * 255
        }
    }

    /// A monotone cubic (Fritsch–Carlson) through five points on 0…1, flat beyond the ends
    /// (CIToneCurve's five control points).
    public static func toneCurve(points: [(x: Double, y: Double)]) -> @Sendable (Double) -> Double {
        let p = points.sorted { $0.x < $1.x }
        let n = p.count
        var slopes = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) {
            let dx = p[i + 1].x - p[i].x
            slopes[i] = dx > 0 ? (p[i + 1].y - p[i].y) / dx : 0
        }
        var tangents = [Double](repeating: 0, count: n)
        tangents[0] = slopes[0]
        tangents[n - 1] = slopes[n - 2]
        for i in 1..<(n - 1) { tangents[i] = slopes[i - 1] * slopes[i] <= 0 ? 0 : (slopes[i - 1] + slopes[i]) / 2 }
        for i in 0..<(n - 1) where slopes[i] != 0 {
            let a = tangents[i] / slopes[i], b = tangents[i + 1] / slopes[i]
            let h = a * a + b * b
            if h > 9 {
                let t = 3 / h.squareRoot()
                tangents[i] = t * a * slopes[i]
                tangents[i + 1] = t * b * slopes[i]
            }
        }
        let xs = p.map(\.x), ys = p.map(\.y), ms = tangents
        return { v in
            let x = v / 255
            if x <= xs[0] { return ys[0] * 255 }
            if x >= xs[n - 1] { return ys[n - 1] * 255 }
            var i = 0
            while i < n - 2 && x > xs[i + 1] { i += 1 }
            let h = xs[i + 1] - xs[i]
            guard h > 0 else { return ys[i] * 255 }
            let t = (x - xs[i]) / h, t2 = t * t, t3 = t2 * t
            let y = (2 * t3 - 3 * t2 + 1) * ys[i] + (t3 - 2 * t2 + t) * h * ms[i]
                + (-2 * t3 + 3 * t2) * ys[i + 1] + (t3 - t2) * h * ms[i + 1]
            return y * 255
        }
    }
}

/// The sRGB transfer function (IEC 61966-2-1) on 0…1.
enum SRGB {
    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
}
