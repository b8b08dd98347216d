import FramelabCore
import Foundation
@testable import FramelabFilters
import Testing

/// The fused matrix-then-curve loop gives exactly what the two steps give one after the
/// other, whatever the width (vector part, trailing lookups, scalar tail), stride or
/// clamp variant, in place too; and `explain` says when it is used.
@Suite struct MatrixCurveKernelTests {
    @Test(arguments: [("sepia", ColorMatrixKernelTests.sepia), ("hue", ColorMatrixKernelTests.hue),
                      ("darken", ColorMatrixKernelTests.darken), ("identity", ColorMatrix.identity)])
    func fusedLoopEqualsTwoSteps(name: String, matrix: ColorMatrix) {
        let gamma = ChannelCurves { 255 * pow($0 / 255, 0.8) }
        let fused = MatrixCurveKernel(matrix: ColorMatrixKernel(matrix), curves: gamma)
        var rng = SplitMix64(seed: 11)
        for (w, h) in [(1, 1), (7, 2), (8, 3), (31, 2), (32, 2), (33, 4), (40, 3), (41, 5), (100, 6)] {
            let input = TestImages.noise(.bgra8, width: w, height: h, using: &rng)
            let twoSteps = Mat(format: .bgra8, width: w, height: h)
            ColorMatrixKernel(matrix).apply(input, into: twoSteps, rows: 0..<h)
            gamma.applyTables(twoSteps, into: twoSteps, rows: 0..<h)
            let out = Mat(format: .bgra8, width: w, height: h, stride: 4 * w + 12)
            fused.apply(input, into: out, rows: 0..<h)
            #expect(out.hasSamePixels(as: twoSteps), "\(name) \(w)x\(h)")
            let inPlace = input.clone()
            fused.apply(inPlace, into: inPlace, rows: 0..<h)
            #expect(inPlace.hasSamePixels(as: twoSteps), "\(name) \(w)x\(h) in place")
        }
    }

    @Test func explainNamesTheFusedLoopOnlyWhenItRuns() throws {
        let registry = FilterRegistry.builtIns
        let recipe = try registry.recipe(["sepia", "gamma:power=0.8"].map { try ElementSpec(parsing: $0) })
        let note = "colour matrix and lookup table run in one loop per row"
        #expect(try recipe.explain(format: .bgra8, width: 64, height: 8).contains(note))
        // bgr8 pixels do not fit 32-bit lanes: the two steps run one after the other.
        #expect(!(try recipe.explain(format: .bgr8, width: 64, height: 8).contains(note)))
        let alpha = try registry.recipe(["colorMatrix:a=0.5/0/0/0.5", "gamma"].map { try ElementSpec(parsing: $0) })
        #expect(!(try alpha.explain(format: .bgra8, width: 64, height: 8).contains(note)))
    }
}
