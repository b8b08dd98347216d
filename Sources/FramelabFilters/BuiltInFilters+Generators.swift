import FramelabCore

extension BuiltInFilters {
    static let generatorFilters: [FilterDescriptor] = [
        FilterDescriptor(
            builtIn: "constantColor", summary: "an image of one colour, the input's size",
            parameters: [.numbers("color", "0 0 0 1", "r g b a on 0…1")],
            operation: { GeneratorOperation(.constantColor(try $0.color("color"))) }, formats: colorFormats),
        FilterDescriptor(
            builtIn: "radialGradient", summary: "color0 inside radius0, color1 beyond radius1, linear between",
            parameters: [
                .numbers("center", "0.5 0.5", "centre as fractions of width and height"),
                .number("radius0", 0...100_000, 5, "inner radius in pixels"),
                .number("radius1", 0...100_000, 100, "outer radius in pixels"),
                .numbers("color0", "1 1 1 1", "inner colour, r g b a on 0…1"),
                .numbers("color1", "0 0 0 1", "outer colour, r g b a on 0…1"),
            ],
            operation: { v in
                let c = try v.vector("center", count: 2, range: -10...10)
                return GeneratorOperation(.radialGradient(centerX: c[0], centerY: c[1], radius0: v.double("radius0"),
                                                 radius1: v.double("radius1"), color0: try v.color("color0"),
                                                 color1: try v.color("color1")))
            }, formats: colorFormats),
    ]

    static let compositeFilters: [FilterDescriptor] = [
        FilterDescriptor(
            builtIn: "sourceOver", summary: "composites a colour layer over the frame (Porter-Duff source-over)",
            parameters: [.numbers("color", "0 0 0 0.5", "overlay colour r g b a on 0…1 (straight alpha)")],
            operation: { SourceOverOperation(overlay: .constantColor(try $0.color("color"))) }, formats: colorFormats),
        FilterDescriptor(
            builtIn: "blendWithMask", summary: "the frame inside a radial mask, a background colour outside (a vignette)",
            parameters: [
                .numbers("background", "0 0 0 1", "colour outside the mask, r g b a on 0…1"),
                .numbers("center", "0.5 0.5", "mask centre as fractions of width and height"),
                .number("radius0", 0...100_000, 100, "the frame is kept fully inside this radius (pixels)"),
                .number("radius1", 0...100_000, 400, "the background is fully shown beyond this radius"),
            ],
            operation: { v in
                let c = try v.vector("center", count: 2, range: -10...10)
                let mask = Generator.radialGradient(centerX: c[0], centerY: c[1], radius0: v.double("radius0"),
                                                    radius1: v.double("radius1"), color0: RGBAColor(r: 1, g: 1, b: 1),
                                                    color1: RGBAColor(r: 0, g: 0, b: 0))
                return BlendWithMaskOperation(background: .constantColor(try v.color("background")), mask: mask)
            }, formats: colorFormats),
    ]
}
