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
