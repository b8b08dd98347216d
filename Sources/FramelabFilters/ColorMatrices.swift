#if canImport(Glibc)
import Glibc
#endif

/// The colour matrices behind the matrix-family built-ins.
public enum ColorMatrices {
    /// BT.601 luma weights for R, G, B (as `gray` and OpenCV's cvtColor).
    static let luma = [0.299, 0.587, 0.114]

    /// The classic sepia-tone matrix (rows: output R, G, B).
    public static let sepia = ColorMatrix([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
    ])

    /// Rotation of hue by `angle` radians about the gray axis, keeping luma
    /// (the hue-rotate matrix of the W3C filter effects specification).
    public static func hueRotation(_ angle: Double) -> ColorMatrix {
        let c = cos(angle), s = sin(angle)
        return ColorMatrix([
            [0.213 + 0.787 * c - 0.213 * s, 0.715 - 0.715 * c - 0.715 * s, 0.072 - 0.072 * c + 0.928 * s],
            [0.213 - 0.213 * c + 0.143 * s, 0.715 + 0.285 * c + 0.140 * s, 0.072 - 0.072 * c - 0.283 * s],
            [0.213 - 0.213 * c - 0.787 * s, 0.715 - 0.715 * c + 0.715 * s, 0.072 + 0.928 * c + 0.072 * s],
        ])
    }

    /// Saturation about luma, then contrast about mid-gray, then brightness added
    /// (the order of CIColorControls' description). Brightness is a fraction of full scale.
    public static func colorControls(saturation s: Double, brightness: Double, contrast c: Double) -> ColorMatrix {
        let saturate = ColorMatrix((0..<3).map { r in (0..<3).map { col in luma[col] * (1 - s) + (r == col ? s : 0) } })
        let contrastAndBrightness = ColorMatrix([[c, 0, 0], [0, c, 0], [0, 0, c]],
                                                bias: Array(repeating: 127.5 * (1 - c) + brightness * 255, count: 3))
        return contrastAndBrightness.after(saturate)
    }

    /// 255 − value on R, G, B.
    public static let invert = ColorMatrix([[-1, 0, 0], [0, -1, 0], [0, 0, -1]], bias: [255, 255, 255])

    /// Maps white to `color` (CIWhitePointAdjust): a per-channel scale.
    public static func whitePoint(_ color: RGBAColor) -> ColorMatrix {
        .scale(r: color.r, g: color.g, b: color.b)
    }

    /// White balance from the light's colour `neutral` (temperature in kelvin, tint) to
    /// `target`: per-channel gains that turn the neutral white into the target white, with
    /// the green gain scaled by exp((neutral tint − target tint) / 100) for tint (positive
    /// tint = more magenta, as in photo editors). Gains are normalised to keep green at 1
    /// for equal tints. Applied to encoded values, so it composes with other matrices.
    public static func temperatureTint(neutral: (Double, Double), target: (Double, Double)) -> ColorMatrix {
        let from = Blackbody.rgb(kelvin: neutral.0), to = Blackbody.rgb(kelvin: target.0)
        var gains = (0..<3).map { to[$0] / from[$0] }
        gains = gains.map { $0 / gains[1] }
        gains[1] *= exp((neutral.1 - target.1) / 100)
        return .scale(r: gains[0], g: gains[1], b: gains[2])
    }
}

/// The colour of a black body, as linear sRGB normalised to its largest component.
enum Blackbody {
    /// Chromaticity of the Planckian locus from the cubic approximation of Kim et al.
    /// (valid 1667 K…25000 K), converted to linear sRGB.
    static func rgb(kelvin t: Double) -> [Double] {
        let t = min(max(t, 1667), 25000)
        let x: Double
        if t <= 4000 {
            x = -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
        } else {
            x = -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        }
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        let X = x / y, Y = 1.0, Z = (1 - x - y) / y
        let rgb = [3.2406 * X - 1.5372 * Y - 0.4986 * Z,
                   -0.9689 * X + 1.8758 * Y + 0.0415 * Z,
                   0.0557 * X - 0.2040 * Y + 1.0570 * Z].map { max($0, 1e-6) }
        let top = rgb.max()!
        return rgb.map { $0 / top }
    }
}
