import FramelabCore

/// A 3x3 matrix on (R, G, B) plus a bias, applied per pixel; alpha is kept.
/// Rows give output R, G, B; columns weigh input R, G, B. Values are 0…255 scale.
public struct ColorMatrix: Sendable, Equatable {
    public var m: [[Double]]
    public var bias: [Double]

    public init(_ m: [[Double]], bias: [Double] = [0, 0, 0]) {
        precondition(m.count == 3 && m.allSatisfy { $0.count == 3 } && bias.count == 3, "ColorMatrix is 3x3 + 3")
        self.m = m
        self.bias = bias
    }

    public static let identity = ColorMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    /// `self` applied after `first`: (self ∘ first)(x) = self(first(x)).
    public func after(_ first: ColorMatrix) -> ColorMatrix {
        var out = [[Double]](repeating: [0, 0, 0], count: 3)
        var b = [0.0, 0, 0]
        for r in 0..<3 {
            for c in 0..<3 { out[r][c] = (0..<3).reduce(0) { $0 + m[r][$1] * first.m[$1][c] } }
            b[r] = (0..<3).reduce(bias[r]) { $0 + m[r][$1] * first.bias[$1] }
        }
        return ColorMatrix(out, bias: b)
    }

    /// Linear blend toward identity: t = 0 gives identity, t = 1 gives self.
    public func blended(_ t: Double) -> ColorMatrix {
        let id = ColorMatrix.identity
        return ColorMatrix((0..<3).map { r in (0..<3).map { c in id.m[r][c] + (m[r][c] - id.m[r][c]) * t } },
                           bias: bias.map { $0 * t })
    }

    /// The scalar reference: applies the matrix to every pixel of a BGR8 or BGRA8 image,
    /// rounding to nearest and clamping to 0…255. `output` may be `input` (in place).
    public func applyScalar(_ input: Mat, into output: Mat) {
        precondition(input.hasSameShape(as: output), "ColorMatrix: shapes differ")
        precondition(input.format == .bgra8 || input.format == .bgr8, "ColorMatrix takes bgr8 or bgra8")
        let step = input.format.bytesPerPixel
        let outStride = output.stride
        // Coefficients in locals: the loop must not index nested arrays per pixel.
        let (m00, m01, m02, b0) = (m[0][0], m[0][1], m[0][2], bias[0])
        let (m10, m11, m12, b1) = (m[1][0], m[1][1], m[1][2], bias[1])
        let (m20, m21, m22, b2) = (m[2][0], m[2][1], m[2][2], bias[2])
        output.withUnsafeMutableBytes { dst in
            input.withUnsafeBytes { src in
                let s = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let d = dst.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<input.height {
                    let sr = s + y * input.stride, dr = d + y * outStride
                    for x in 0..<input.width {
                        let p = x * step
                        let b = Double(sr[p]), g = Double(sr[p + 1]), r = Double(sr[p + 2])
                        let nr = m00 * r + m01 * g + m02 * b + b0
                        let ng = m10 * r + m11 * g + m12 * b + b1
                        let nb = m20 * r + m21 * g + m22 * b + b2
                        dr[p] = clampToByte(nb)
                        dr[p + 1] = clampToByte(ng)
                        dr[p + 2] = clampToByte(nr)
                        if step == 4 { dr[p + 3] = sr[p + 3] }
                    }
                }
            }
        }
    }
}

/// Rounds to nearest and clamps to 0…255.
@inline(__always)
func clampToByte(_ v: Double) -> UInt8 {
    UInt8(max(0, min(255, (v + 0.5).rounded(.down))))
}
