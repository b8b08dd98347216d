import FramelabCore
import FramelabElements
@testable import FramelabFilters
import Testing

/// A radial gradient copies a row from its mirror image about the centre when that row was
/// rendered earlier in the same call (`MirrorRows`), and a column from its mirror in the
/// row (`MirrorColumns`): the frame must be the same, byte for byte, as rendering every row
/// on its own, as rendering every column (but for rounding where the kernel and the scalar
/// tail split a row differently), at every level, in every format, and a recipe
/// that runs colour steps after the generator must still match the eager chain.
@Suite struct GradientMirrorTests {
    @Test func partnersAreRowsOfThisCallAboveTheCentre() {
        let whole = MirrorRows(centre: 540, rows: 0..<1080)         // 1080 rows, centre 0.5
        #expect(whole.partner(of: 540) == 539 && whole.partner(of: 1079) == 0)
        #expect(whole.partner(of: 539) == nil && whole.partner(of: 0) == nil)
        let odd = MirrorRows(centre: 24.5, rows: 0..<49)            // 49 rows: row 24 is the centre
        #expect(odd.partner(of: 24) == nil && odd.partner(of: 25) == 23 && odd.partner(of: 48) == 0)
        let band = MirrorRows(centre: 540, rows: 600..<700)         // a chunk below the centre
        #expect(band.partner(of: 650) == nil, "row 429 is not in this call's rows")
        #expect(MirrorRows(centre: 10.25, rows: 0..<40).partner(of: 30) == nil, "2c = 20.5: no row mirrors another")
    }

    @Test func columnsLeftOfTheCentreCopyTheirMirrorInsideTheRow() {
        let hd = MirrorColumns(centre: 960, width: 1920)           // the default centre
        #expect(hd.computed == [960..<1920] && hd.copied == 0..<960 && hd.sum == 1919)
        let odd = MirrorColumns(centre: 24.5, width: 49)            // column 24 is the centre
        #expect(odd.computed == [24..<49] && odd.copied == 0..<24 && odd.sum == 48)
        let right = MirrorColumns(centre: 48, width: 64)            // 0.75: mirrors reach the edge
        #expect(right.computed == [0..<32, 48..<64] && right.copied == 32..<48)
        #expect(MirrorColumns(centre: 19.2, width: 64).computed == [0..<64], "2c not whole: no mirror")
        #expect(MirrorColumns(centre: 0.5, width: 64).copied.isEmpty, "column 0 is its own mirror")
        #expect(MirrorColumns(centre: -3, width: 64).computed == [0..<64], "centre left of the row")
        #expect(MirrorColumns(centre: 200, width: 64).computed == [0..<64], "centre far right: no mirror inside")
        #expect(MirrorColumns(centre: 960, width: 1920, enabled: false).copied.isEmpty)
        for plan in [hd, odd, right] {
            for x in plan.copied { #expect(plan.computed.contains { $0.contains(plan.sum - x) }, "\(x) from \(plan.sum - x)") }
        }
    }

    static let gradients: [Generator] = [
        .radialGradient(centerX: 0.5, centerY: 0.5, radius0: 3, radius1: 20,
                        color0: RGBAColor(r: 1, g: 0.8, b: 0.2, a: 0.9), color1: RGBAColor(r: 0.1, g: 0.2, b: 0.7)),
        .radialGradient(centerX: 0.3, centerY: 0.25, radius0: 0, radius1: 31,
                        color0: RGBAColor(r: 1, g: 1, b: 1), color1: RGBAColor(r: 0, g: 0, b: 0)),
        .radialGradient(centerX: 0.75, centerY: 0.5, radius0: 1, radius1: 25,
                        color0: RGBAColor(r: 0.3, g: 0.9, b: 0.5, a: 0.6), color1: RGBAColor(r: 0.9, g: 0.1, b: 0.4)),
    ]

    @Test(arguments: [PixelFormat.bgra8, .bgr8, .gray8])
    func mirroredRowsAreTheRowsComputedOneByOne(format: PixelFormat) {
        for table in KernelLevel.supported.flatMap(\.tables) {
            for generator in Self.gradients {
                for (width, height) in [(64, 48), (61, 49), (37, 1), (40, 2)] {
                    let whole = Mat(format: format, width: width, height: height)
                    generator.renderVector(into: whole, rows: 0..<height, kernels: table)
                    let single = Mat(format: format, width: width, height: height)
                    for y in 0..<height { generator.renderVector(into: single, rows: y..<(y + 1), kernels: table) }
                    #expect(whole.maxAbsDifference(to: single) == 0, "\(table.name) \(format) \(width)x\(height) \(generator)")
                    // Every column computed: the same but where the kernel and the scalar
                    // tail split a row differently (one rounding apart at most).
                    let unmirrored = Mat(format: format, width: width, height: height)
                    generator.renderVector(into: unmirrored, rows: 0..<height, kernels: table, mirrorColumns: false)
                    let apart = whole.maxAbsDifference(to: unmirrored)
                    #expect(apart <= 1, "\(table.name) \(format) \(width)x\(height): columns copied \(apart) levels off")
                    let reference = Mat(format: format, width: width, height: height)
                    generator.renderScalar(into: reference)
                    let worst = whole.maxAbsDifference(to: reference)
                    #expect(worst <= 1, "\(table.name) \(format) \(width)x\(height): \(worst) levels from the scalar reference")
                }
            }
        }
    }

    /// In a recipe the generator renders a chunk of rows, then the colour steps run on them:
    /// rows of an earlier chunk are not copied (they have been coloured since).
    @Test func aRecipeColouringTheGradientMatchesTheEagerChain() throws {
        let registry = FilterRegistry.builtIns
        let specs = try ["radialGradient:radius0=2,radius1=40", "sepia:intensity=0.9", "gamma:power=0.7"]
            .map { try ElementSpec(parsing: $0) }
        let input = Mat(format: .bgra8, width: 96, height: 80)
        for threads in [1, 2] {
            let fused = try registry.instantiateChain(specs, path: .recipe, threads: threads)
            #expect(fused.count == 1, "the three steps fuse into one recipe stage")
            let eager = try specs.map { try registry.instantiate($0, path: .simd) }
            var a = input, b = input
            for f in fused { a = try f.process(a) }
            for f in eager { b = try f.process(b) }
            let worst = a.maxAbsDifference(to: b)
            #expect(worst <= 1, "recipe on \(threads) thread(s) vs eager: \(worst) levels apart")
        }
    }
}

/// A recipe of a lone radial gradient shares out only the rows it computes and copies their
/// mirror images (`RowMirror`, `CompiledPass.runMirrored`): on any number of threads, the
/// frame is the one the SIMD path renders in one call, byte for byte.
@Suite struct GradientRecipeMirrorTests {
    @Test func mirroredRowsAreThoseWithAPartnerInsideTheImage() {
        #expect(RowMirror(sum: 1079, height: 1080)?.copies == 540..<1080, "the default centre at 1080p")
        #expect(RowMirror(sum: 48, height: 49)?.copies == 25..<49, "row 24 is the centre")
        #expect(RowMirror(sum: 49, height: 100)?.copies == 25..<50, "centre 0.25: the rows below 2c are computed")
        #expect(RowMirror(sum: 179, height: 100)?.copies == 90..<100, "centre 0.9")
        #expect(RowMirror(sum: 0, height: 10) == nil && RowMirror(sum: -5, height: 10) == nil && RowMirror(sum: nil, height: 10) == nil)
        #expect(RowMirror(sum: 30, height: 10) == nil, "the centre below the image: no partner inside")
        let m = RowMirror(sum: 49, height: 100)!
        #expect((0..<(100 - m.copies.count)).map(m.computedRow) == Array(0..<25) + Array(50..<100))
    }

    /// `filters --explain` names the rows the renderer copies: a lone gradient's, none once a
    /// colour step joins its pass (which then renders every row).
    @Test func thePlanCountsTheRowsItCopies() throws {
        let registry = FilterRegistry.builtIns
        func copied(_ specs: [String], height: Int) throws -> [Int] {
            let plan = try registry.recipe(specs.map { try ElementSpec(parsing: $0) }).plan(format: .bgra8, width: 64, height: height)
            return plan.passes.map(plan.copiedRows)
        }
        #expect(try copied(["radialGradient"], height: 1080) == [540])
        #expect(try copied(["radialGradient:center=0.5 0.25"], height: 100) == [25])
        #expect(try copied(["radialGradient:center=0.5 0.333"], height: 100) == [0], "33.3 is not on a half pixel")
        #expect(try copied(["radialGradient", "sepia"], height: 1080) == [0])
        #expect(try copied(["sepia"], height: 1080) == [0])
        let text = try registry.recipe([try ElementSpec(parsing: "radialGradient")]).explain(format: .bgra8, width: 64, height: 48)
        #expect(text.contains("24 of 48 rows mirror rows above them"))
    }

    @Test(arguments: [PixelFormat.bgra8, .bgr8])
    func aLoneGradientRecipeIsTheSIMDFrameOnAnyThreads(format: PixelFormat) throws {
        let registry = FilterRegistry.builtIns
        let centres = ["0.5 0.5", "0.3 0.25", "0.5 0.9", "0.5 0.333", "0.5 0", "0.5 1"]
        for centre in centres {
            let spec = try ElementSpec(parsing: "radialGradient:center=\(centre),radius0=2,radius1=30")
            for (width, height) in [(64, 48), (61, 49), (37, 1), (40, 2), (33, 101)] {
                let input = Mat(format: format, width: width, height: height)
                let simd = try registry.instantiate(spec, path: .simd).process(input)
                for threads in [1, 2, 3, 5] {
                    let recipe = try registry.instantiateChain([spec], path: .recipe, threads: threads)
                    var out = input
                    for f in recipe { out = try f.process(out) }
                    #expect(out.maxAbsDifference(to: simd) == 0, "\(format) \(width)x\(height) centre \(centre) on \(threads) threads")
                }
            }
        }
    }
}
