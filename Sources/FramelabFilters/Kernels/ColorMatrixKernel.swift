import FramelabCore
import FramelabCV
import FramelabKernels

/// A colour matrix on B, G, R (and A when it changes alpha) as a filter operation: per
/// pixel, consecutive matrices compose into one, and a matrix followed by a curve runs in
/// one loop (`MatrixCurveKernel`).
struct ColorMatrixOperation: PerPixelOperation {
    let matrix: ColorMatrix

    init(_ matrix: ColorMatrix) { self.matrix = matrix }

    var fusion: Fusion { .perPixel(self) }
    var planLabel: String { "colour matrix" }

    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape? {
        sameColorShape(format, width, height)
    }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        ColorMatrixOperationKernel(ColorMatrixKernel(matrix, kernels: kernels))
    }

    func composed(after previous: any PerPixelOperation) -> (any PerPixelOperation)? {
        (previous as? ColorMatrixOperation).map { ColorMatrixOperation(matrix.after($0.matrix)) }
    }

    func sharedLoop(with next: any PerPixelOperation, format: PixelFormat) -> String? {
        guard next is CurvesOperation, MatrixCurveKernel.fuses(matrix, format: format) else { return nil }
        let bgr = format != .bgr8 ? ""
            : MatrixCurveKernel.runsThreeByteStraight(matrix, KernelLevel.currentTable) ? "; bgr8 straight from its three-byte pixels"
            : "; bgr8 widened to BGRA 64 pixels at a time"
        return "colour matrix and lookup table run in one loop per row (\(MatrixCurveKernel.loopSummary(KernelLevel.currentTable))\(bgr))"
    }

    func sharedLoopKernel(with next: any PerPixelOperation, for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        let curves = (next as! CurvesOperation).curves
        return MatrixCurveOperationKernel(MatrixCurveKernel(matrix: ColorMatrixKernel(matrix, kernels: kernels), curves: curves))
    }
}

/// The colour matrix's three paths for one kernel level.
final class ColorMatrixOperationKernel: OperationKernel {
    let vector: ColorMatrixKernel

    init(_ vector: ColorMatrixKernel) { self.vector = vector }

    func applyScalar(_ input: Mat, into output: Mat) { vector.matrix.applyScalar(input, into: output) }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        vector.apply(input, into: output, rows: rows)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws {
        try OpenCVFilters.transform(input, into: output, matrix: vector.matrix.openCVMatrix(channels: input.format.channels))
    }
}

extension ColorMatrix {
    /// The scalar reference: applies the matrix to every pixel of a BGR8 or BGRA8 image in
    /// Double precision, rounding to nearest and clamping to 0…255. `output` may be `input`.
    public func applyScalar(_ input: Mat, into output: Mat) {
        precondition(input.hasSameShape(as: output), "ColorMatrix: shapes differ")
        precondition(input.format == .bgra8 || input.format == .bgr8, "ColorMatrix takes bgr8 or bgra8")
        let step = input.format.bytesPerPixel
        // Coefficients in locals: the loop must not index nested arrays per pixel.
        let (m00, m01, m02, m03, b0) = (m[0][0], m[0][1], m[0][2], m[0][3], bias[0])
        let (m10, m11, m12, m13, b1) = (m[1][0], m[1][1], m[1][2], m[1][3], bias[1])
        let (m20, m21, m22, m23, b2) = (m[2][0], m[2][1], m[2][2], m[2][3], bias[2])
        let (m30, m31, m32, m33, b3) = (m[3][0], m[3][1], m[3][2], m[3][3], bias[3])
        forEachRowPair(input, output) { s, d in
            for x in 0..<input.width {
                let p = x * step
                let b = Double(s[p]), g = Double(s[p + 1]), r = Double(s[p + 2])
                let a = step == 4 ? Double(s[p + 3]) : 255
                d[p + 2] = clampToByte(m00 * r + m01 * g + m02 * b + m03 * a + b0)
                d[p + 1] = clampToByte(m10 * r + m11 * g + m12 * b + m13 * a + b1)
                d[p] = clampToByte(m20 * r + m21 * g + m22 * b + m23 * a + b2)
                if step == 4 { d[p + 3] = clampToByte(m30 * r + m31 * g + m32 * b + m33 * a + b3) }
            }
        }
    }

    /// Rows and columns reordered to memory order (B, G, R[, A]) with the bias as last
    /// column, as cv::transform takes it.
    func openCVMatrix(channels: Int) -> [Double] {
        let order = [2, 1, 0, 3]  // memory channel → matrix index
        var out: [Double] = []
        for row in 0..<channels {
            let i = order[row]
            for col in 0..<channels { out.append(m[i][order[col]]) }
            // Three channels: alpha is 255 in the definition, so its column folds into the bias.
            out.append(bias[i] + (channels == 3 ? m[i][3] * 255 : 0))
        }
        return out
    }
}

/// The SIMD colour-matrix kernel: BGRA pixels through the level's `matrix3` (alpha kept)
/// or `matrix4` loop, then a scalar tail in float arithmetic.
///
/// The loops (`KernelTable`): where the matrix's weights fit 16 bits (each below 4, bias
/// within about ±1,023: `FixedPointMatrix`, worked out here once), every x86-64 level runs
/// it in 16-bit fixed point with `pmaddwd` on (B, R) and (G, 256) word pairs and
/// saturating packs (SSE2 at baseline, `AVX2IntegerMatrixStep`, `AVX512IntegerMatrixStep`
/// with `vpdpwssd` where VNNI exists). Other matrices, and arm64's baseline, take the float
/// loops: hardware int/float conversions, FMAs and saturating packs on x86-64-v3 and v4
/// (`AVX2MatrixStep`, eight pixels; `AVX512MatrixStep`, sixteen, with a masked last step),
/// the portable `SIMD8<Float>` loop elsewhere, which rounds with the 2^23 trick and clamps
/// with integer min/max, leaving out the clamps the matrix cannot need (`ClampNeed`).
///
/// Why 16-bit fixed point and not the 32-bit kind an earlier version had: `vpmulld` is slow
/// on the target CPUs (every 4 cycles on one pipe on Zen 1; 4.5 ms at 1080p against 3.0 for
/// the portable float loop), while `pmaddwd` does two 16-bit products and their sum per lane
/// at full rate. The rounded weights are off by at most 0.055 of a level in all, so results
/// stay within ±1 of the Double reference (docs/filters.md).
struct ColorMatrixKernel {
    /// The matrix (for the scalar and OpenCV paths of its operation).
    let matrix: ColorMatrix
    /// Rows R, G, B, A of coefficients on R, G, B, A, then bias: 4 x 5 floats, flat.
    let coefficients: [Float]
    /// The fixed-point steps' weight words (`FixedPointMatrix.weights(of:)`); nil where the
    /// matrix does not fit them (the float steps run it).
    let fixedPoint: [Int32]?
    let keepsAlpha: Bool
    /// Which clamps the colour rows (and alpha, for 4x4) can need (portable loops).
    let clamp: ClampNeed
    /// The level's loops, fixed when the kernel is made.
    let kernels: KernelTable
    /// The matrix is exactly 255 − v on B, G and R with alpha kept (`invert`, or matrices
    /// that compose to it): a byte complement, at memcpy's pace, where the float loop took
    /// 1.2 ms at 1080p on Zen 3 (avx2), 2.4x memcpy.
    let isComplement: Bool

    init(_ matrix: ColorMatrix, kernels: KernelTable = KernelLevel.currentTable) {
        self.matrix = matrix
        coefficients = (0..<4).flatMap { r in (matrix.m[r] + [matrix.bias[r]]).map { Float($0) } }
        fixedPoint = FixedPointMatrix.weights(of: coefficients)
        keepsAlpha = matrix.keepsAlpha
        isComplement = matrix.keepsAlpha && (0..<3).allSatisfy { r in
            matrix.bias[r] == 255 && (0..<4).allSatisfy { c in matrix.m[r][c] == (r == c ? -1 : 0) }
        }
        clamp = ClampNeed(matrix, rows: keepsAlpha ? 3 : 4)
        self.kernels = kernels
    }

    /// Applies to rows `rows` of `input` into `output` (same shape, bgra8 or bgr8; the
    /// same image for both is fine, each pixel is read before it is written).
    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        if isComplement { return complement(input, into: output, rows: rows) }
        let width = input.width, step = input.format.bytesPerPixel
        withCoefficients { k, fixed in
            forEachRowPair(input, output, rows: rows) { s, d in
                var x = 0
                if step == 4 {
                    x = vectorRow(s, d, width, k, fixed)
                } else if step == 3 {
                    // Fixed-point weights: straight on the three-byte pixels where the level
                    // has the loop. Otherwise through the BGRA loops as opaque pixels, 64 at a
                    // time (a bgr8 pixel's alpha is 255 to a matrix with an alpha column, as
                    // in `tail`).
                    if let fixed, keepsAlpha { x = kernels.matrix3ThreeByte(s, d, width, fixed) }
                    if x == 0 {
                        x = PortableKernels.throughBGRA(s, d, width, kernels) { c, o, n in
                            vectorRow(c.assumingMemoryBound(to: UInt8.self), o.assumingMemoryBound(to: UInt8.self), n, k, fixed)
                        }
                    }
                }
                tail(s, d, from: x, to: width, step: step, k)
            }
        }
    }

    /// The float matrix and the fixed-point weight words (nil where they do not fit), as
    /// the levels' loops take them, valid for `body`.
    func withCoefficients<R>(_ body: (UnsafePointer<Float>, UnsafePointer<Int32>?) -> R) -> R {
        coefficients.withUnsafeBufferPointer { k in
            guard let fixedPoint else { return body(k.baseAddress!, nil) }
            return fixedPoint.withUnsafeBufferPointer { body(k.baseAddress!, $0.baseAddress!) }
        }
    }

    /// 255 − v on the colour bytes, alpha kept: XOR with 0xFF on B, G and R (32 bytes, then
    /// 8, at a time: whole BGRA pixels, or any bgr8 bytes), then the rest byte by byte.
    private func complement(_ input: Mat, into output: Mat, rows: Range<Int>) {
        let step = input.format.bytesPerPixel, n = input.width * step
        let mask = step == 4 ? UInt64(littleEndian: 0x00FF_FFFF_00FF_FFFF) : ~0
        forEachRowPair(input, output, rows: rows) { s, d in
            var i = 0
            // 32 bytes a step (a plain 8-byte loop took two cycles a step), then 8.
            let masks = SIMD4<UInt64>(repeating: mask)
            while i &+ 32 <= n {
                UnsafeMutableRawPointer(d + i).storeBytes(of: UnsafeRawPointer(s + i).loadUnaligned(as: SIMD4<UInt64>.self) ^ masks,
                                                          as: SIMD4<UInt64>.self)
                i &+= 32
            }
            while i &+ 8 <= n {
                UnsafeMutableRawPointer(d + i).storeBytes(of: UnsafeRawPointer(s + i).loadUnaligned(as: UInt64.self) ^ mask,
                                                          as: UInt64.self)
                i &+= 8
            }
            while i < n {
                d[i] = step == 4 && i % 4 == 3 ? s[i] : ~s[i]
                i += 1
            }
        }
    }

    /// The vector part of one BGRA row; returns the first pixel not done.
    @inline(__always)
    func vectorRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?) -> Int {
        keepsAlpha ? kernels.matrix3(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), width, k, fixed, clamp)
            : kernels.matrix4(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), width, k)
    }

    /// Pixels start..<width of one row (`step` bytes a pixel: 4, or 3 for bgr8) in scalar
    /// code (what the vector loop left over).
    func applyRowTail(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, from start: Int, to width: Int,
                      step: Int, _ k: UnsafePointer<Float>) {
        tail(s, d, from: start, to: width, step: step, k)
    }

    /// Scalar tail in the same float arithmetic (for bgr8 the pixels the BGRA loops left).
    @inline(__always)
    private func tail(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, from start: Int, to width: Int,
                      step: Int, _ k: UnsafePointer<Float>) {
        for x in start..<width {
            let p = x * step
            let b = Float(s[p]), g = Float(s[p + 1]), r = Float(s[p + 2])
            let a: Float = step == 4 ? Float(s[p + 3]) : 255
            @inline(__always) func row(_ i: Int) -> UInt8 {
                let o = 5 * i
                let v = k[o + 4] + k[o] * r + k[o + 1] * g + k[o + 2] * b + k[o + 3] * a
                return UInt8(max(0, min(255, (v + 0.5).rounded(.down))))
            }
            let nr = row(0), ng = row(1), nb = row(2)
            if step == 4 { d[p + 3] = keepsAlpha ? s[p + 3] : row(3) }
            d[p + 2] = nr
            d[p + 1] = ng
            d[p] = nb
        }
    }
}

extension ClampNeed {
    /// Which clamps `matrix` can need, from its extreme outputs over the RGB cube (each
    /// coefficient's extreme is at 0 or 255, so summing the negative and the positive parts
    /// gives the exact minimum and maximum).
    init(_ matrix: ColorMatrix, rows: Int) {
        var low = false, high = false
        for r in 0..<rows {
            let terms = (0..<4).map { c in matrix.m[r][c] * (c == 3 && rows == 3 ? 0 : 255) }
            let lowest = matrix.bias[r] + terms.filter { $0 < 0 }.reduce(0, +)
            let highest = matrix.bias[r] + terms.filter { $0 > 0 }.reduce(0, +)
            // Values in (−0.5, 255.5) round into 0…255 by themselves; the quarter-level
            // margin covers float rounding of the coefficients.
            if lowest < -0.25 { low = true }
            if highest > 255.25 { high = true }
        }
        switch (low, high) {
        case (true, true): self = .both
        case (false, true): self = .high
        case (true, false): self = .low
        case (false, false): self = .none
        }
    }
}
