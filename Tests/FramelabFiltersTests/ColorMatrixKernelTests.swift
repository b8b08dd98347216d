import FramelabCore
@testable import FramelabFilters
import FramelabKernels
import Testing

/// The colour-matrix kernel: which clamps each kind of matrix gets, and that the vector
/// loops of every kernel level this CPU has (the portable float loop with every clamp
/// specialisation, the fixed-point steps where a matrix fits, the AVX2 and AVX-512 float
/// steps where it does not), the 4x4 loop and the scalar tail stay within ±1 of the Double
/// reference.
@Suite struct ColorMatrixKernelTests {
    static let sepia = ColorMatrix([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]])
    static let hue = ColorMatrices.hueRotation(0.5)
    static let darken = ColorMatrix([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5]], bias: [-20, -20, -20])
    /// Hue and sepia with one bias past the fixed-point limit (that channel saturates), so the
    /// float steps run on ordinary weights in the other two.
    static let hueInFloat = { var m = hue; m.bias[0] = 1100; return m }()
    static let sepiaInFloat = { var m = sepia; m.bias[2] = -1100; return m }()

    @Test func clampsFollowTheMatrixRange() {
        #expect(ColorMatrixKernel(.identity).clamp == .none)
        #expect(ColorMatrixKernel(Self.sepia).clamp == .high)      // positive weights summing above 1
        #expect(ColorMatrixKernel(Self.darken).clamp == .low)      // never above 255, below 0 near black
        #expect(ColorMatrixKernel(Self.hue).clamp == .both)        // negative weights push both ways
    }

    @Test(arguments: [("identity", ColorMatrix.identity), ("sepia", ColorMatrixKernelTests.sepia), ("hue", ColorMatrixKernelTests.hue), ("darken", ColorMatrixKernelTests.darken),
                      ("hue in float", ColorMatrixKernelTests.hueInFloat), ("sepia in float", ColorMatrixKernelTests.sepiaInFloat),
                      ("alpha", ColorMatrix([[1, 0, 0, 0.2], [0, 0.9, 0, 0], [0.1, 0, 0.8, 0], [0.3, 0.3, 0.3, 0.5]],
                                            bias: [5, -3, 0, 10]))])
    func everyLoopMatchesTheReference(name: String, matrix: ColorMatrix) {
        for table in KernelLevel.supported.flatMap(\.tables) {
            check(name: "\(name) \(table.name)", matrix: matrix, kernel: ColorMatrixKernel(matrix, kernels: table))
        }
    }

    private func check(name: String, matrix: ColorMatrix, kernel: ColorMatrixKernel) {
        var rng = SplitMix64(seed: 42)
        // Widths below, at and above one vector, and odd ones, so the scalar tail runs too.
        for (w, h) in [(1, 1), (7, 3), (8, 2), (9, 5), (15, 2), (16, 3), (17, 2), (37, 11), (64, 4), (150, 2)] {
            for format in [PixelFormat.bgra8, .bgr8] {
                let input = TestImages.noise(format, width: w, height: h, using: &rng)
                let expected = Mat(format: format, width: w, height: h)
                matrix.applyScalar(input, into: expected)
                let fast = Mat(format: format, width: w, height: h, stride: w * format.bytesPerPixel + 5)
                kernel.apply(input, into: fast, rows: 0..<h)
                #expect(fast.maxAbsDifference(to: expected) <= 1, "\(name) \(format) \(w)x\(h)")
                // In place, as a recipe's later steps run.
                let inPlace = input.clone()
                kernel.apply(inPlace, into: inPlace, rows: 0..<h)
                #expect(inPlace.hasSamePixels(as: fast), "\(name) \(format) \(w)x\(h) in place")
            }
        }
    }

    /// The fixed-point steps compute one integer definition (`FixedPointMatrix`), so on BGRA
    /// rows whose width is a multiple of every level's step (64 pixels: no scalar tail, which
    /// computes in float) every table's bytes equal the portable table's exactly, not only
    /// within ±1 of the reference: a step whose rounding or bias drifts by a fraction of a
    /// level fails here. (The bgr8 loops take float steps at some levels: ±1, above.)
    @Test(arguments: [("sepia", ColorMatrixKernelTests.sepia), ("hue", ColorMatrixKernelTests.hue),
                      ("darken", ColorMatrixKernelTests.darken)])
    func fixedPointStepsGiveThePortableBytesAtEveryLevel(name: String, matrix: ColorMatrix) {
        #expect(ColorMatrixKernel(matrix).fixedPoint != nil, "\(name) fits the fixed-point steps")
        var rng = SplitMix64(seed: 11)
        for (w, h) in [(64, 4), (256, 24)] {
            for format in [PixelFormat.bgra8] {
                let input = TestImages.noise(format, width: w, height: h, using: &rng)
                let expected = Mat(format: format, width: w, height: h)
                ColorMatrixKernel(matrix, kernels: .portable).apply(input, into: expected, rows: 0..<h)
                for table in KernelLevel.supported.flatMap(\.tables) {
                    let out = Mat(format: format, width: w, height: h)
                    ColorMatrixKernel(matrix, kernels: table).apply(input, into: out, rows: 0..<h)
                    #expect(out.hasSamePixels(as: expected), "\(name) \(table.name) \(format) \(w)x\(h)")
                }
            }
        }
    }

    /// The portable float loop in each clamp specialisation, called directly: on x86-64 the
    /// baseline level runs the matrices that fit in 16-bit fixed point, so the kernel above
    /// reaches the float loop there only for the ones that do not.
    @Test(arguments: [("identity", ColorMatrix.identity), ("sepia", ColorMatrixKernelTests.sepia),
                      ("hue", ColorMatrixKernelTests.hue), ("darken", ColorMatrixKernelTests.darken)])
    func portableFloatLoopMatchesTheReference(name: String, matrix: ColorMatrix) {
        var rng = SplitMix64(seed: 7)
        let kernel = ColorMatrixKernel(matrix, kernels: .portable)
        let (w, h) = (37, 3)
        let input = TestImages.noise(.bgra8, width: w, height: h, using: &rng)
        let expected = Mat(format: .bgra8, width: w, height: h)
        matrix.applyScalar(input, into: expected)
        let out = input.clone()
        let done = out.withUnsafeMutableBytes { bytes in
            kernel.coefficients.withUnsafeBufferPointer { k in
                (0..<h).map { y in
                    let row = bytes.baseAddress! + y * out.stride
                    return PortableKernels.floatMatrix3(UnsafeRawPointer(row), row, w, k.baseAddress!, kernel.clamp)
                }.min()!
            }
        }
        #expect(done == 32, "\(name): the loop did \(done) of \(w) pixels")
        var worst = 0
        for y in 0..<h { for x in 0..<done {
            let a = out.pixel(x: x, y: y), b = expected.pixel(x: x, y: y)
            for c in 0..<4 { worst = max(worst, Int(abs(a[c] - b[c]))) }
        } }
        #expect(worst <= 1, "\(name) (clamp \(kernel.clamp)): off by \(worst)")
    }

    /// Which matrices the fixed-point steps take (worked out once per kernel): weights below
    /// 4 and biases within about ±1,023, finite; and the identity comes out exact at every
    /// level, fixed point or not.
    @Test func fixedPointWeightsOnlyForTheMatricesThatFit() {
        func fits(_ matrix: ColorMatrix) -> Bool { ColorMatrixKernel(matrix).fixedPoint != nil }
        #expect(fits(.identity) && fits(Self.sepia) && fits(Self.hue) && fits(Self.darken))
        #expect(fits(ColorMatrix([[3.999, -3.999, 0.001], [-3.999, 3.999, 0.5], [0.25, 0.25, 0.25]], bias: [-1022, 300, 0.49])))
        #expect(!fits(ColorMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 4.0001]])))
        #expect(!fits(ColorMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]], bias: [0, 0, 1024])))
        #expect(!fits(ColorMatrix([[1, 0, 0], [0, .nan, 0], [0, 0, 1]])))
        #expect(!fits(Self.hueInFloat) && !fits(Self.sepiaInFloat))
        #expect(ColorMatrixKernel(.identity).coefficients.count == 20)
        #expect(ColorMatrixKernel(.identity).fixedPoint?.count == FixedPointMatrix.wordCount)
        var rng = SplitMix64(seed: 11)
        let input = TestImages.noise(.bgra8, width: 40, height: 2, using: &rng)
        for table in KernelLevel.supported.flatMap(\.tables) {
            let out = Mat(format: .bgra8, width: 40, height: 2)
            ColorMatrixKernel(.identity, kernels: table).apply(input, into: out, rows: 0..<2)
            #expect(out.hasSamePixels(as: input), "\(table.name)")
        }
    }

    /// Invert, and a chain that composes to it, take the byte complement: exactly 255 − v
    /// on B, G and R with alpha kept, in place too; a near miss does not.
    @Test func aComplementMatrixIsExactAndKeepsAlpha() {
        let twice = ColorMatrices.invert.after(ColorMatrices.invert).after(ColorMatrices.invert)
        #expect(ColorMatrixKernel(ColorMatrices.invert).isComplement && ColorMatrixKernel(twice).isComplement)
        #expect(!ColorMatrixKernel(.identity).isComplement && !ColorMatrixKernel(Self.sepia).isComplement)
        #expect(!ColorMatrixKernel(ColorMatrix([[-1, 0, 0], [0, -1, 0], [0, 0, -1]], bias: [255, 255, 254])).isComplement)
        var rng = SplitMix64(seed: 9)
        for (w, h) in [(1, 1), (3, 2), (9, 3), (37, 5)] {
            for format in [PixelFormat.bgra8, .bgr8] {
                let input = TestImages.noise(format, width: w, height: h, using: &rng)
                let out = Mat(format: format, width: w, height: h, stride: w * format.bytesPerPixel + 3)
                ColorMatrixKernel(ColorMatrices.invert).apply(input, into: out, rows: 0..<h)
                for y in 0..<h { for x in 0..<w {
                    let a = input.pixel(x: x, y: y), b = out.pixel(x: x, y: y)
                    for c in 0..<format.channels {
                        #expect(b[c] == (c == 3 ? a[c] : 255 - a[c]), "\(format) \(w)x\(h) at \(x),\(y) channel \(c)")
                    }
                } }
                let inPlace = input.clone()
                ColorMatrixKernel(twice).apply(inPlace, into: inPlace, rows: 0..<h)
                #expect(inPlace.hasSamePixels(as: out), "\(format) \(w)x\(h) in place")
            }
        }
    }

    @Test func extremeValuesClampAndRound() {
        // A matrix far outside the range: every output saturates, none wraps around.
        let wild = ColorMatrix([[40, -40, 3], [-90, 2, 95], [1, 1, 1]], bias: [-3000, 2000, 0.49])
        let input = Mat(format: .bgra8, width: 16, height: 1)
        for x in 0..<16 { input.setPixel(x: x, y: 0, [Double(x * 17), Double(255 - x * 17), Double(x % 2 * 255), 255]) }
        let expected = Mat(format: .bgra8, width: 16, height: 1)
        wild.applyScalar(input, into: expected)
        for table in KernelLevel.supported.flatMap(\.tables) {
            let fast = Mat(format: .bgra8, width: 16, height: 1)
            ColorMatrixKernel(wild, kernels: table).apply(input, into: fast, rows: 0..<1)
            #expect(fast.maxAbsDifference(to: expected) <= 1, "\(table.name)")
        }
    }
}
