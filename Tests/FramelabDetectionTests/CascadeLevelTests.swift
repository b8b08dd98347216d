import FramelabCore
import FramelabCV
import FramelabFilters
import FramelabKernels
#if arch(x86_64)
import FramelabKernelsAVX2
import FramelabKernelsAVX512
#endif
import Testing
@testable import FramelabDetection

/// The cascade's row kernel at every instruction-set level this CPU has finds exactly the
/// windows the portable kernel finds (and `HaarCascadeEvaluatorTests` holds those to
/// OpenCV's), for a stump cascade and a tree cascade, at both window steps.
@Suite struct CascadeLevelTests {
    static let settings = SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 0, minSize: 24)

    static var levelTables: [KernelTable] { KernelLevel.supported.flatMap(\.tables) }

    @Test(arguments: ["haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt2.xml"])
    func everyLevelFindsThePortableWindows(xml: String) throws {
        let cascade = try HaarCascade(contentsOf: CascadeFiles.path("haarcascades/" + xml))
        let portable = HaarCascadeEvaluator(cascade: cascade, kernels: .portable)
        for name in ["astronaut.png", "messi5.jpg"] {
            let image = try HaarCascadeEvaluatorTests.photo(name)
            let expected = try portable.rawWindows(image, settings: Self.settings)
            #expect(expected.count > 10, "\(xml) \(name): only \(expected.count) windows")
            for table in Self.levelTables {
                let found = try HaarCascadeEvaluator(cascade: cascade, kernels: table).rawWindows(image, settings: Self.settings)
                #expect(found == expected, "\(xml) \(name) at \(table.name): \(found.count) windows, portable \(expected.count)")
            }
        }
    }

    @Test func theConvenienceInitialiserTakesTheCurrentLevel() throws {
        let cascade = try HaarCascade(contentsOf: CascadeFiles.haarFrontalFace)
        for level in KernelLevel.supported {
            let evaluator = KernelLevel.$override.withValue(level) { HaarCascadeEvaluator(cascade: cascade) }
            #expect(evaluator.kernelLevel == level.table?.name)
        }
    }

    /// Rectangle sums become floats as a conversion instruction rounds them, at every level
    /// and with the portable operators: small sums exactly, and any Int32 rounded to nearest.
    @Test func weightedSumsConvertAsTheConversionInstructionDoes() {
        let small: [Int32] = [0, 1, 255, 146_880, (1 << 22) - 1, -1, -(1 << 22), 12_345]
        let large: [Int32] = [.max, .min, (1 << 24) + 1, (1 << 24) + 3, -(1 << 25) - 3, 1 << 22, 987_654_321, -7]
        for values in [small, large] {
            let r = SIMD8<Int32>(values)
            let expected = SIMD8<Float>(r) * 0.75
            #expect(PortableDenseLanes.weighted(r, 0.75) == expected, "portable, \(values)")
            #expect(OperatorLanes.weighted(r, 0.75) == expected, "Swift operators, \(values)")
            #if arch(x86_64)
            if KernelLevel.supported.contains(.avx2) {
                #expect(AVX2Kernels.AVX2DenseLanes.weighted(r, 0.75) == expected, "avx2, \(values)")
            }
            if KernelLevel.supported.contains(.avx512) {
                #expect(AVX512Kernels.AVX512DenseLanes.weighted(r, 0.75) == expected, "avx512, \(values)")
            }
            #endif
        }
    }

    /// Lanes with `CascadeLanes`' own arithmetic (Swift's SIMD operators and the exact
    /// conversion), which arm64 uses; every x86 level has intrinsics of its own.
    enum OperatorLanes: CascadeLanes { static var step: Int { 1 } }

    /// The float sum decides a stage only outside a margin that covers its rounding error.
    @Test func stageMarginsBracketTheThresholdByTheRoundingBound() {
        let values: [Float] = Array(repeating: 0.75, count: 200)
        let stage = CascadeStage(threshold: -1.25, first: 0, stumpCount: 200, treeCount: 0, largestValues: values)
        let bound = 200 * 0x1p-24 * 150.0
        #expect(Double(stage.surePass) - Double(stage.threshold) >= bound)
        #expect(Double(stage.threshold) - Double(stage.sureFail) >= bound)
        #expect(Double(stage.surePass) - Double(stage.threshold) < 2 * bound)
        let broken = CascadeStage(threshold: 0, first: 0, stumpCount: 1, treeCount: 0, largestValues: [.nan])
        #expect(!(Float(5) >= broken.surePass) && !(Float(-5) < broken.sureFail), "a NaN leaf leaves every sum to the double path")
    }

    /// A two-node tree is evaluated by selects over its four outcomes: those outcomes are
    /// the leaves its walk reaches, for either child placement.
    @Test func pairOutcomesAreTheLeavesTheWalkReaches() {
        typealias C = HaarCascade.WeakClassifier
        typealias N = HaarCascade.Node
        let leftChild = C(nodes: [N(feature: 0, threshold: 0, left: 1, right: 0), N(feature: 1, threshold: 0, left: -1, right: -2)],
                          leaves: [10, 11, 12])
        #expect(CompiledCascade.pairOutcomes(leftChild) == SIMD4(11, 12, 10, 10))
        let rightChild = C(nodes: [N(feature: 0, threshold: 0, left: 0, right: 1), N(feature: 1, threshold: 0, left: -1, right: -2)],
                           leaves: [10, 11, 12])
        #expect(CompiledCascade.pairOutcomes(rightChild) == SIMD4(10, 10, 11, 12))
        let chainOfThree = C(nodes: [N(feature: 0, threshold: 0, left: 1, right: 0), N(feature: 1, threshold: 0, left: 2, right: -1),
                                     N(feature: 2, threshold: 0, left: -2, right: -3)], leaves: [1, 2, 3, 4])
        #expect(CompiledCascade.pairOutcomes(chainOfThree) == nil)
    }
}
