import FramelabCore
import FramelabElements
import FramelabFilters
import Testing

/// Fusion: what the plan contains, and that fused results match the eager chain.
@Suite struct RecipeTests {
    let registry = FilterRegistry.builtIns

    func recipe(_ texts: [String]) throws -> Recipe {
        try registry.recipe(texts.map { try ElementSpec(parsing: $0) })
    }

    @Test func fourColourOperationsFuseIntoOnePass() throws {
        let r = try recipe(["sepia:intensity=0.8", "hue:angle=0.5", "colorControls:saturation=1.2", "gamma:power=0.8"])
        let plan = try r.plan(format: .bgra8, width: 64, height: 48)
        #expect(plan.passes.count == 1)
        #expect(plan.passes[0].colors.count == 2)  // one matrix, one table
        let text = try r.explain(format: .bgra8, width: 64, height: 48, threads: 2)
        #expect(text.contains("in 1 pass(es)"))
        #expect(text.contains("colour matrix (sepia ∘ hue ∘ colorControls) → lookup table (gamma)"))
        #expect(text.contains("rows split across 2 thread(s)"))
    }

    @Test func consecutiveWarpsBecomeOneResampling() throws {
        let r = try recipe(["affine:preset=rotate90", "crop:x=2,y=3,width=10,height=20", "affine:preset=mirror", "invert"])
        let plan = try r.plan(format: .bgr8, width: 40, height: 30)
        #expect(plan.passes.count == 1)
        #expect(plan.output.width == 10 && plan.output.height == 20)
        #expect(try r.explain(format: .bgr8, width: 40, height: 30).contains("one resampling (exact pixel copy)"))
    }

    @Test func blurAfterColourNeedsASecondPass() throws {
        let r = try recipe(["sepia", "gaussianBlur:radius=2", "invert"])
        let plan = try r.plan(format: .bgra8, width: 16, height: 16)
        #expect(plan.passes.count == 2)
        #expect(try r.explain(format: .bgra8, width: 16, height: 16).contains("1 full-frame intermediate"))
    }

    @Test func planRejectsAFormatAStepCannotTake() throws {
        let r = try recipe(["gray", "sepia"])
        let error = #expect(throws: FramelabError.self) { try r.plan(format: .bgra8, width: 4, height: 4) }
        #expect(error?.message == "recipe step 'sepia' does not accept gray8 (accepts bgr8, bgra8)")
    }

    /// The fused chain against the scalar path applied eagerly. Fused matrices compose
    /// without clamping or rounding in between (as Core Image's float pipeline), so the
    /// two agree within ±2 on images whose intermediates stay inside 0…255: noise in 40…160.
    @Test(arguments: [1, 2, 3])
    func fusedChainMatchesEagerScalarChain(threads: Int) throws {
        let texts = ["sepia:intensity=0.6", "hue:angle=0.4", "colorControls:saturation=0.9,contrast=0.9", "gamma:power=0.8",
                     "vibrance:amount=0.3", "gray"]
        var rng = SplitMix64(seed: 5)
        for (w, h) in [(37, 11), (1, 1), (64, 9)] {
            let input = TestImages.noise(.bgra8, width: w, height: h, values: 40...160, using: &rng)
            var eager = input
            for t in texts { eager = try registry.instantiate(ElementSpec(parsing: t), path: .scalar).process(eager).clone() }
            let fused = try registry.instantiateChain(texts.map { try ElementSpec(parsing: $0) }, path: .recipe, threads: threads)
            #expect(fused.count == 1)
            let out = try fused[0].process(input)
            #expect(out.format == .gray8)
            #expect(out.maxAbsDifference(to: eager) <= 2)
        }
    }

    @Test func renderingSplitAcrossThreadsEqualsOneThread() throws {
        let r = try recipe(["straighten:angle=0.2", "sepia", "gaussianBlur:radius=1.5", "exposure:ev=0.5"])
        let input = FilterBenchmark.testFrame(width: 101, height: 67)
        let one = RecipeRenderer(r, threads: 1), three = RecipeRenderer(r, threads: 3)
        let shape = try one.outputShape(for: input)
        let a = Mat(format: shape.format, width: shape.width, height: shape.height)
        let b = Mat(format: shape.format, width: shape.width, height: shape.height)
        try one.render(input, into: a)
        try three.render(input, into: b)
        #expect(a.hasSamePixels(as: b))
    }

    @Test func buildingARecipeDoesNoPixelWork() throws {
        // A recipe holds only descriptions: building and planning need no image at all.
        let registry = FilterRegistry.builtIns
        let invert = try #require(try registry["invert"]!.makeOperation(ElementSpec(name: "invert")))
        let gray = try #require(try registry["gray"]!.makeOperation(ElementSpec(name: "gray")))
        let r = Recipe().appending("invert", invert).appending("gray", gray)
        #expect(r.steps.map(\.name) == ["invert", "gray"])
        #expect(try r.plan(format: .bgr8, width: 8000, height: 8000).output.format == .gray8)
    }
}
