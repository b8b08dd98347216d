import FramelabCore

/// An affine colour map on (R, G, B, A): out = m · in + bias, per pixel.
///
/// Rows give output R, G, B, A; columns weigh input R, G, B, A. Values are on the 0…255
/// scale (bias too). Images without alpha behave as if alpha were 255 and drop the alpha row.
public struct ColorMatrix: Sendable, Equatable {
    /// 4x4, row-major.
    public var m: [[Double]]
    public var bias: [Double]

    /// A 3x3 matrix on R, G, B (alpha kept) or a full 4x4 one; bias has 3 or 4 entries.
    public init(_ m: [[Double]], bias: [Double] = [0, 0, 0]) {
        precondition((m.count == 3 && m.allSatisfy { $0.count == 3 }) || (m.count == 4 && m.allSatisfy { $0.count == 4 }),
                     "ColorMatrix is 3x3 or 4x4")
        precondition(bias.count == 3 || bias.count == 4, "ColorMatrix bias has 3 or 4 entries")
        if m.count == 3 {
            self.m = m.map { $0 + [0] } + [[0, 0, 0, 1]]
        } else {
            self.m = m
        }
        self.bias = bias.count == 3 ? bias + [0] : bias
    }

    public static let identity = ColorMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    /// A diagonal matrix scaling R, G, B.
    public static func scale(r: Double, g: Double, b: Double) -> ColorMatrix {
        ColorMatrix([[r, 0, 0], [0, g, 0], [0, 0, b]])
    }

    /// True when alpha passes through unchanged and does not feed the colour rows, so
    /// kernels may copy alpha and use only the 3x3 part.
    public var keepsAlpha: Bool {
        m[3] == [0, 0, 0, 1] && bias[3] == 0 && m[0][3] == 0 && m[1][3] == 0 && m[2][3] == 0
    }

    /// `self` applied after `first`: (self ∘ first)(x) = self(first(x)).
    public func after(_ first: ColorMatrix) -> ColorMatrix {
        var out = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        var b = [0.0, 0, 0, 0]
        for r in 0..<4 {
            for c in 0..<4 { out[r][c] = (0..<4).reduce(0) { $0 + m[r][$1] * first.m[$1][c] } }
            b[r] = (0..<4).reduce(bias[r]) { $0 + m[r][$1] * first.bias[$1] }
        }
        return ColorMatrix(out, bias: b)
    }

    /// Linear blend toward identity: t = 0 gives identity, t = 1 gives self.
    public func blended(_ t: Double) -> ColorMatrix {
        let id = ColorMatrix.identity
        return ColorMatrix((0..<4).map { r in (0..<4).map { c in id.m[r][c] + (m[r][c] - id.m[r][c]) * t } },
                           bias: bias.map { $0 * t })
    }

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
}

/// Rounds to nearest and clamps to 0…255.
@inline(__always)
func clampToByte(_ v: Double) -> UInt8 {
    UInt8(max(0, min(255, (v + 0.5).rounded(.down))))
}

/// Calls `body` with each row of `input` and the same row of `output` (same height).
/// The pointers are valid only inside `body`.
func forEachRowPair(_ input: Mat, _ output: Mat, rows: Range<Int>? = nil,
                    _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void) {
    let range = rows ?? 0..<input.height
    output.withUnsafeMutableBytes { dst in
        input.withUnsafeBytes { src in
            guard let s = src.baseAddress?.assumingMemoryBound(to: UInt8.self),
                  let d = dst.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in range { body(s + y * input.stride, d + y * output.stride) }
        }
    }
}
