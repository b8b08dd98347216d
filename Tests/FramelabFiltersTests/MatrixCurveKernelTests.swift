import FramelabElements
import FramelabCore
import FramelabKernels
import Foundation
@testable import FramelabFilters
import Testing

/// The fused matrix-then-curve loop gives exactly what the two steps give one after the
/// other, whatever the width (vector parts of 64 and 16 pixels, trailing lookups, scalar
/// tail), stride or kernel level, in place too; the pair tables equal the per-channel
/// tables; and `explain` says when the fused loop is used.
@Suite struct MatrixCurveKernelTests {
    @Test(arguments: [("sepia", ColorMatrixKernelTests.sepia), ("hue", ColorMatrixKernelTests.hue),
                      ("darken", ColorMatrixKernelTests.darken), ("identity", ColorMatrix.identity)])
    func fusedLoopEqualsTwoSteps(name: String, matrix: ColorMatrix) {
        for table in KernelLevel.supported.flatMap(\.tables) { check(name: "\(name) \(table.name)", matrix: matrix, kernels: table) }
    }

    private func check(name: String, matrix: ColorMatrix, kernels: KernelTable) {
        let gamma = ChannelCurves { 255 * pow($0 / 255, 0.8) }
        let fused = MatrixCurveKernel(matrix: ColorMatrixKernel(matrix, kernels: kernels), curves: gamma)
        var rng = SplitMix64(seed: 11)
        for (w, h) in [(1, 1), (7, 2), (8, 3), (16, 2), (31, 2), (32, 2), (33, 4), (40, 3), (41, 5), (47, 2), (48, 3), (49, 2),
                       (64, 2), (100, 6), (128, 2), (150, 2)] {
            for format in [PixelFormat.bgra8, .bgr8] {
                let input = TestImages.noise(format, width: w, height: h, using: &rng)
                let twoSteps = Mat(format: format, width: w, height: h)
                ColorMatrixKernel(matrix, kernels: kernels).apply(input, into: twoSteps, rows: 0..<h)
                gamma.applyTables(twoSteps, into: twoSteps, rows: 0..<h)
                expectBothWays(input, equal: twoSteps, "\(name) \(format) \(w)x\(h)") { fused.apply($0, into: $1, rows: 0..<h) }
            }
        }
    }

    /// Runs `apply` into an image with a padded stride and in place; both must equal `expected`.
    private func expectBothWays(_ input: Mat, equal expected: Mat, _ label: String, _ apply: (Mat, Mat) -> Void) {
        let out = Mat(format: input.format, width: input.width, height: input.height,
                      stride: input.format.bytesPerPixel * input.width + 12)
        apply(input, out)
        #expect(out.hasSamePixels(as: expected), "\(label)")
        let inPlace = input.clone()
        apply(inPlace, inPlace)
        #expect(inPlace.hasSamePixels(as: expected), "\(label) in place")
    }

    /// Every (first, second) byte pair of both tables against the three per-channel
    /// tables, and whole images (odd widths, padded strides, in place) through `apply`.
    @Test func pairTablesEqualThePerChannelTables() {
        let curves = ChannelCurves(blue: { 255 - $0 }, green: { 255 * pow($0 / 255, 0.5) }, red: { min(255, 2 * $0) })
        let pairs = PairCurveTables(curves)
        var wrong = 0
        for second in 0..<256 {
            for first in 0..<256 {
                let i = first | second << 8
                let low = UInt16(curves.tables[0][first]) | UInt16(curves.tables[1][second]) << 8
                let high = UInt32(curves.tables[2][first]) << 16 | UInt32(second) << 24
                if pairs.low[i] != low || pairs.high[i] != high { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        var rng = SplitMix64(seed: 5)
        for (w, h) in [(1, 1), (3, 2), (17, 5), (64, 3)] {
            let input = TestImages.noise(.bgra8, width: w, height: h, using: &rng)
            let expected = Mat(format: .bgra8, width: w, height: h)
            curves.applyScalar(input, into: expected)
            for table in KernelLevel.supported.flatMap(\.tables) {
                expectBothWays(input, equal: expected, "\(w)x\(h) \(table.name)") { pairs.apply($0, into: $1, rows: 0..<h, kernels: table) }
            }
        }
    }

    @Test func explainNamesTheFusedLoopOnlyWhenItRuns() throws {
        let registry = FilterRegistry.builtIns
        let recipe = try registry.recipe(["sepia", "gamma:power=0.8"].map { try ElementSpec(parsing: $0) })
        let note = "colour matrix and lookup table run in one loop per row"
        #expect(try recipe.explain(format: .bgra8, width: 64, height: 8).contains(note))
        // bgr8 runs straight from its three-byte pixels at the vector levels (sepia then hue
        // has fixed-point weights), on BGRA copies of 64 pixels at a time at the baseline.
        let straight = try recipe.explain(format: .bgr8, width: 64, height: 8)
        #expect(straight.contains(KernelLevel.current == .baseline ? "bgr8 widened to BGRA 64 pixels at a time"
                                                                    : "bgr8 straight from its three-byte pixels"), "\(straight)")
        let widened = try KernelLevel.$override.withValue(.baseline) { try recipe.explain(format: .bgr8, width: 64, height: 8) }
        #expect(widened.contains("bgr8 widened to BGRA 64 pixels at a time"), "\(widened)")
        #expect(!(try recipe.explain(format: .bgra8, width: 64, height: 8).contains("bgr8 widened")))
        let alpha = try registry.recipe(["colorMatrix:a=0.5/0/0/0.5", "gamma"].map { try ElementSpec(parsing: $0) })
        #expect(!(try alpha.explain(format: .bgra8, width: 64, height: 8).contains(note)))
        // The loop described is the one of the level the recipe would run at.
        let baseline = try KernelLevel.$override.withValue(.baseline) { try recipe.explain(format: .bgra8, width: 64, height: 8) }
        #expect(baseline.contains("over the row, then its pair-table lookups"), "\(baseline)")
        if KernelLevel.avx512.tables.last?.name == KernelTable.avx512VBMIName {
            let permutes = try KernelLevel.$override.withValue(.avx512) { try recipe.explain(format: .bgra8, width: 64, height: 8) }
            #expect(permutes.contains("byte-permute lookups"), "\(permutes)")
        }
    }
}
