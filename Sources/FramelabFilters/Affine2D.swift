import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// A 2-D affine map of continuous pixel coordinates (pixel (i, j) covers [i, i+1) × [j, j+1)):
/// x' = a·x + b·y + tx, y' = c·x + d·y + ty.
public struct Affine2D: Sendable, Equatable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = Affine2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> Affine2D {
        Affine2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// Rotation by `angle` radians (counter-clockwise on screen, where y points down) about the origin.
    public static func rotation(_ angle: Double) -> Affine2D {
        let cs = cos(angle), sn = sin(angle)
        // Snap values that are exactly 0 or ±1 in theory, so quarter turns stay exact.
        func snap(_ v: Double) -> Double { abs(v) < 1e-12 ? 0 : abs(abs(v) - 1) < 1e-12 ? v.sign == .minus ? -1 : 1 : v }
        return Affine2D(a: snap(cs), b: snap(sn), c: snap(-sn), d: snap(cs), tx: 0, ty: 0)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> Affine2D {
        Affine2D(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// `self` applied after `first`.
    public func after(_ first: Affine2D) -> Affine2D {
        Affine2D(a: a * first.a + b * first.c, b: a * first.b + b * first.d,
                 c: c * first.a + d * first.c, d: c * first.b + d * first.d,
                 tx: a * first.tx + b * first.ty + tx, ty: c * first.tx + d * first.ty + ty)
    }

    public var determinant: Double { a * d - b * c }

    /// The inverse map; nil when the map is singular.
    public var inverse: Affine2D? {
        let det = determinant
        guard abs(det) > 1e-12 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Affine2D(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ib * ty), ty: -(ic * tx + id * ty))
    }

    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + tx, c * x + d * y + ty)
    }

    /// True when every coefficient is an integer: the map moves whole pixels, so
    /// resampling is an exact copy (rotations by quarter turns, mirrors, crops).
    public var isPixelExact: Bool {
        [a, b, c, d, tx, ty].allSatisfy { $0 == $0.rounded() }
    }
}

/// A geometric operation: where each output pixel comes from, and the output size.
public struct Warp: Sendable, Equatable {
    /// Maps input coordinates to output coordinates.
    public var transform: Affine2D
    public var width: Int
    public var height: Int

    /// The whole input transformed, framed by the bounding box of its corners.
    public static func boundingBox(of transform: Affine2D, width: Int, height: Int) -> Warp {
        let corners = [(0.0, 0.0), (Double(width), 0), (0, Double(height)), (Double(width), Double(height))]
            .map { transform.apply($0.0, $0.1) }
        let minX = corners.map(\.x).min()!, minY = corners.map(\.y).min()!
        let maxX = corners.map(\.x).max()!, maxY = corners.map(\.y).max()!
        // Round away tiny errors so a quarter turn of W×H is exactly H×W.
        let w = Int((maxX - minX - 1e-6).rounded(.up)), h = Int((maxY - minY - 1e-6).rounded(.up))
        return Warp(transform: Affine2D.translation(-minX, -minY).after(transform), width: max(w, 1), height: max(h, 1))
    }

    /// `self` after `first`: one resampling instead of two.
    public func after(_ first: Warp) -> Warp {
        Warp(transform: transform.after(first.transform), width: width, height: height)
    }
}
