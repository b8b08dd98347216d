import FramelabCore
import FramelabElements
@testable import FramelabFilters
import FramelabKernels
import Testing

/// The open kernel protocol: an operation declares its fusion and brings its own paths;
/// the runner and the recipe renderer need no change for a new one.
@Suite struct FilterOperationTests {
    /// A new per-pixel operation, defined here the way docs/architecture.md says: R and B
    /// swapped (a matrix would do, which is why it composes with nothing on purpose).
    struct SwapRedBlue: PerPixelOperation, PlainOperation {
        var fusion: Fusion { .perPixel(self) }
        var planLabel: String { "swap red and blue" }
        var missingOpenCVReason: String? { "a test operation" }

        func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
            sameColorShape(format, width, height)
        }

        func applyScalar(_ input: Mat, into output: Mat) {
            applyVector(input, into: output, rows: 0..<input.height, kernels: .portable)
        }

        func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable) {
            let step = input.format.bytesPerPixel
            forEachRowPair(input, output, rows: rows) { s, d in
                for x in 0..<input.width {
                    let p = x * step
                    let (b, g, r) = (s[p], s[p + 1], s[p + 2])
                    d[p] = r
                    d[p + 1] = g
                    d[p + 2] = b
                    if step == 4 { d[p + 3] = s[p + 3] }
                }
            }
        }

        func applyOpenCV(_ input: Mat, into output: Mat) throws { throw noOpenCV() }
    }

    let registry = FilterRegistry.builtIns

    func operation(_ text: String) throws -> any FilterOperation {
        let spec = try ElementSpec(parsing: text)
        return try #require(try registry[spec.name]?.makeOperation(spec))
    }

    @Test func aNewOperationJoinsARecipeAndAnEagerFilter() throws {
        let sepia = try operation("sepia:intensity=0.7")
        let recipe = Recipe([("sepia", sepia), ("swap", SwapRedBlue()), ("invert", try operation("invert"))])
        let plan = try recipe.plan(format: .bgra8, width: 33, height: 7)
        #expect(plan.passes.count == 1 && plan.passes[0].colors.count == 3)
        #expect(try recipe.explain(format: .bgra8, width: 33, height: 7).contains("swap red and blue (swap)"))
        var rng = SplitMix64(seed: 5)
        let input = TestImages.noise(.bgra8, width: 33, height: 7, using: &rng)
        let fused = Mat(format: .bgra8, width: 33, height: 7)
        try RecipeRenderer(recipe, threads: 2).render(input, into: fused)
        // Eagerly, one operation after the other on the SIMD path.
        var image = input
        for (name, op) in [("sepia", sepia), ("swap", SwapRedBlue() as any FilterOperation), ("invert", try operation("invert"))] {
            image = try BuiltInFilter(name: name, operation: op, path: .simd).process(image).clone()
        }
        #expect(fused.maxAbsDifference(to: image) <= 1)
        let error = #expect(throws: FramelabError.self) {
            try BuiltInFilter(name: "swap", operation: SwapRedBlue(), path: .opencv).process(input)
        }
        #expect(error?.message == "filter 'swap' has no OpenCV reference path (a test operation)")
    }

    /// A pass whose head (a resampling, a blur) is followed by a conversion into gray8 gives
    /// the eager chain's pixels, on one thread and on three.
    @Test(arguments: [["crop:x=3,y=2,width=20,height=10", "gray"], ["gaussianBlur:radius=1.5", "vibrance:amount=0.5", "gray"],
                      ["affine:preset=rotate90", "invert", "gray"], ["resize:scale=0.7,aspectRatio=1.3", "sepia", "gray"]])
    func headThenConversionMatchesTheEagerChain(_ texts: [String]) throws {
        let specs = try texts.map { try ElementSpec(parsing: $0) }
        var rng = SplitMix64(seed: 11)
        for format in [PixelFormat.bgra8, .bgr8] {
            let input = TestImages.noise(format, width: 37, height: 23, using: &rng)
            var eager = input
            for spec in specs { eager = try registry.instantiate(spec, path: .simd).process(eager).clone() }
            for threads in [1, 3] {
                let renderer = RecipeRenderer(try registry.recipe(specs), threads: threads)
                let shape = try renderer.outputShape(for: input)
                let out = Mat(format: shape.format, width: shape.width, height: shape.height)
                try renderer.render(input, into: out)
                #expect(out.hasSameShape(as: eager), "\(texts) \(format)")
                if out.hasSameShape(as: eager) { #expect(out.maxAbsDifference(to: eager) == 0, "\(texts) \(format) \(threads)") }
            }
        }
    }

    @Test func eachOperationDeclaresHowItFuses() throws {
        func kind(_ text: String) throws -> String {
            switch try operation(text).fusion {
            case .perPixel: return "perPixel"
            case .resampling: return "resampling"
            case .neighbourhood: return "neighbourhood"
            case .generator: return "generator"
            case .compositing: return "compositing"
            }
        }
        #expect(try kind("sepia") == "perPixel" && kind("gamma") == "perPixel" && kind("vibrance") == "perPixel")
        #expect(try kind("gray") == "perPixel" && kind("crop") == "resampling" && kind("straighten") == "resampling")
        #expect(try kind("gaussianBlur") == "neighbourhood" && kind("resize") == "neighbourhood" && kind("radialGradient") == "generator")
        #expect(try kind("sourceOver") == "compositing" && kind("blendWithMask") == "compositing")
    }
}
