import FramelabCore
import FramelabElements

#if canImport(Glibc)
import Glibc
#endif

/// The built-in filters: Core Image's everyday set, each described by its operation so it
/// runs on every `FilterPath`. Colour filters take bgra8/bgr8; geometry and blur also gray8.
public enum BuiltInFilters {
    public static let all: [FilterDescriptor] = colorFilters + curveFilters + geometryFilters
        + [gaussianBlur] + generatorFilters + compositeFilters

    static let colorFormats: [PixelFormat] = [.bgra8, .bgr8]
    static let anyByteFormat: [PixelFormat] = [.bgra8, .bgr8, .gray8]

    static func matrix(_ name: String, _ summary: String, _ parameters: [ParameterSpec] = [],
                       _ make: @escaping @Sendable (ParameterValues) throws -> ColorMatrix) -> FilterDescriptor {
        FilterDescriptor(builtIn: name, summary: summary, parameters: parameters,
                         operation: { ColorMatrixOperation(try make($0)) }, formats: colorFormats)
    }

    static func curve(_ name: String, _ summary: String, _ parameters: [ParameterSpec],
                      _ make: @escaping @Sendable (ParameterValues) throws -> @Sendable (Double) -> Double) -> FilterDescriptor {
        FilterDescriptor(builtIn: name, summary: summary, parameters: parameters,
                         operation: { CurvesOperation(ChannelCurves(try make($0))) }, formats: colorFormats)
    }

    static let colorFilters: [FilterDescriptor] = [
        FilterDescriptor(builtIn: "gray", summary: "luma (BT.601 weights, as OpenCV's cvtColor) as a one-channel image",
                         operation: { _ in LumaOperation() }, formats: anyByteFormat),
        matrix("sepia", "sepia tone, blended with the original by intensity",
               [.number("intensity", 0...1, 1, "0 keeps the image, 1 is full sepia")]) {
            ColorMatrices.sepia.blended($0.double("intensity"))
        },
        matrix("hue", "rotates hue about the gray axis, keeping luma",
               [.number("angle", -2 * Double.pi...2 * Double.pi, 0, "rotation in radians")]) {
            ColorMatrices.hueRotation($0.double("angle"))
        },
        matrix("colorControls", "saturation, then contrast about mid-gray, then brightness",
               [.number("saturation", 0...4, 1, "0 is gray, 1 unchanged, >1 more saturated"),
                .number("brightness", -1...1, 0, "added, as a fraction of full scale"),
                .number("contrast", 0...4, 1, "slope about mid-gray; 1 unchanged")]) {
            ColorMatrices.colorControls(saturation: $0.double("saturation"), brightness: $0.double("brightness"),
                                        contrast: $0.double("contrast"))
        },
        matrix("colorMatrix", "out = r·R + g·G + b·B + a·A + bias per output channel (vectors of 4, 0…1 scale)",
               [.numbers("r", "1 0 0 0", "weights of input R, G, B, A for output red"),
                .numbers("g", "0 1 0 0", "weights for output green"),
                .numbers("b", "0 0 1 0", "weights for output blue"),
                .numbers("a", "0 0 0 1", "weights for output alpha"),
                .numbers("bias", "0 0 0 0", "added to R, G, B, A (0…1 scale)")]) { v in
            let rows = try ["r", "g", "b", "a"].map { try v.vector($0, count: 4, range: -100...100) }
            return ColorMatrix(rows, bias: try v.vector("bias", count: 4, range: -10...10).map { $0 * 255 })
        },
        FilterDescriptor(builtIn: "vibrance", summary: "raises saturation most where colour is weakest, keeps skin tones",
                         parameters: [.number("amount", -1...1, 0, "−1 mutes, 1 boosts")],
                         operation: { Vibrance(amount: $0.double("amount")) }, formats: colorFormats),
        matrix("whitePoint", "maps white to the given colour (per-channel scale)",
               [.numbers("color", "1 1 1", "the colour white becomes, r g b on 0…1")]) {
            ColorMatrices.whitePoint(try $0.color("color"))
        },
        matrix("temperatureTint", "white balance from the light's colour to a target (kelvin and tint)",
               [.numbers("neutral", "6500 0", "temperature (K) and tint of the scene's light"),
                .numbers("target", "6500 0", "temperature (K) and tint to render it as")]) { v in
            let n = try v.vector("neutral", count: 2), t = try v.vector("target", count: 2)
            for (name, k) in [("neutral", n[0]), ("target", t[0])] where !(1667...25000).contains(k) {
                throw FramelabError(.badInput, "filter 'temperatureTint': parameter '\(name)' temperature \(k) is outside 1667…25000 K")
            }
            return ColorMatrices.temperatureTint(neutral: (n[0], n[1]), target: (t[0], t[1]))
        },
        matrix("invert", "255 − value on R, G and B (alpha kept)") { _ in ColorMatrices.invert },
    ]

    static let curveFilters: [FilterDescriptor] = [
        curve("exposure", "exposure change in stops, in linear light",
              [.number("ev", -10...10, 0, "stops; +1 doubles the light")]) { ToneCurves.exposure(ev: $0.double("ev")) },
        curve("gamma", "value^power on 0…1", [.number("power", 0.1...10, 1, "<1 brightens, >1 darkens")]) {
            ToneCurves.gamma(power: $0.double("power"))
        },
        curve("toneCurve", "a monotone cubic through five points (x y on 0…1)",
              (0..<5).map { i in .numbers("point\(i)", "\(Double(i) / 4) \(Double(i) / 4)", "control point \(i), x y") }) { v in
            let points = try (0..<5).map { i -> (x: Double, y: Double) in
                let p = try v.vector("point\(i)", count: 2, range: 0...1)
                return (p[0], p[1])
            }
            return ToneCurves.toneCurve(points: points)
        },
        curve("highlightShadow", "pulls highlights down and lifts shadows (a global tone curve)",
              [.number("highlight", 0...1, 1, "1 keeps highlights, 0 pulls them down most"),
               .number("shadow", -1...1, 0, "positive lifts shadows, negative deepens them")]) {
            ToneCurves.highlightShadow(highlight: $0.double("highlight"), shadow: $0.double("shadow"))
        },
    ]

    static let gaussianBlur = FilterDescriptor(
        builtIn: "gaussianBlur", summary: "Gaussian blur; radius is the standard deviation in pixels (edges repeated)",
        parameters: [.number("radius", 0...100, 10, "standard deviation in pixels")],
        operation: { GaussianBlurOperation(sigma: $0.double("radius")) }, formats: anyByteFormat)
}
