import FramelabCore
import FramelabElements

#if canImport(Glibc)
import Glibc
#endif

extension BuiltInFilters {
    /// Quarter turns and mirrors, as camera orientation needs them (clockwise on screen).
    static let affinePresets = ["none", "rotate90", "rotate180", "rotate270", "mirror", "flip"]

    static func preset(_ name: String) -> Affine2D {
        switch name {
        case "rotate90": return .rotation(-Double.pi / 2)
        case "rotate180": return .rotation(Double.pi)
        case "rotate270": return .rotation(Double.pi / 2)
        case "mirror": return .scale(-1, 1)
        case "flip": return .scale(1, -1)
        default: return .identity
        }
    }

    /// The largest side crop coordinates may name, 2^28: larger numbers fit no image, and
    /// bounding them keeps every conversion of a parameter to Int exact.
    static let maxCropCoordinate = 1 << 28

    /// The most `affine` may enlarge: each output side is at most this many times the
    /// input's longer side (|a| + |b| and |c| + |d| of the combined matrix). Beyond it an
    /// ordinary frame asks for gigabytes (`matrix=1000 0 0 1000 0 0` on VGA is 12 GB);
    /// 8 leaves a 1080p frame at 15360×8640 at most.
    static let maxAffineScale = 8.0

    /// The largest side `resize` may be asked for in pixels, 16384 (a 16K frame): an
    /// explicit size does not scale with the input, so it gets a fixed bound (a 16384² BGRA
    /// frame is 1 GiB).
    static let maxResizeSide = 16384

    static let geometryFilters: [FilterDescriptor] = [
        FilterDescriptor(
            builtIn: "crop", summary: "keeps a rectangle (clipped to the image; width or height 0 means to the edge)",
            parameters: [
                cropParameter("x", "left edge"),
                cropParameter("y", "top edge"),
                cropParameter("width", "0: to the right edge"),
                cropParameter("height", "0: to the bottom edge"),
            ],
            operation: { v in
                // Exact: the parameters are integers within 0…maxCropCoordinate.
                let x = Int(v.double("x")), y = Int(v.double("y")), w = Int(v.double("width")), h = Int(v.double("height"))
                return WarpOperation { width, height in
                    let left = min(x, width - 1), top = min(y, height - 1)
                    let cw = w == 0 ? width - left : min(w, width - left)
                    let ch = h == 0 ? height - top : min(h, height - top)
                    return Warp(transform: .translation(Double(-left), Double(-top)), width: max(cw, 1), height: max(ch, 1))
                }
            }, formats: anyByteFormat),
        FilterDescriptor(
            builtIn: "affine", summary: "a preset turn or mirror, then a matrix; the output frames the whole result",
            parameters: [
                ParameterSpec(name: "preset", type: .enumeration(affinePresets), defaultValue: .string("none"),
                              summary: "rotate90/180/270 (clockwise), mirror (left-right), flip (top-bottom)"),
                .numbers("matrix", "1 0 0 1 0 0", "a b c d tx ty: x' = a·x + b·y + tx, y' = c·x + d·y + ty"),
            ],
            operation: { v in
                let m = try v.vector("matrix", count: 6, range: -1e6...1e6)
                let user = Affine2D(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
                guard user.inverse != nil else {
                    throw FramelabError(.badInput, "filter 'affine': parameter 'matrix' '\(v.string("matrix"))' is singular")
                }
                let transform = user.after(preset(v.string("preset")))
                let scale = max(abs(transform.a) + abs(transform.b), abs(transform.c) + abs(transform.d))
                guard scale <= maxAffineScale else {
                    throw FramelabError(.badInput, "filter 'affine': parameter 'matrix' '\(v.string("matrix"))' enlarges "
                                        + "\(scale)×, more than the \(Int(maxAffineScale))× an output side may grow")
                }
                return WarpOperation { width, height in Warp.boundingBox(of: transform, width: width, height: height) }
            }, formats: anyByteFormat),
        FilterDescriptor(
            builtIn: "resize", summary: "Lanczos-3 scaling (Core Image's Lanczos scale transform), by factors or to a size",
            parameters: [
                .number("scale", 0.0001...maxAffineScale, 1, "output height = input height × scale"),
                .number("aspectRatio", 0.0001...10000, 1, "extra horizontal factor: output width = input width × scale × aspectRatio"),
                resizeSideParameter("width", "output width in pixels (0: from scale, or from height keeping the aspect)"),
                resizeSideParameter("height", "output height in pixels (0: from scale, or from width keeping the aspect)"),
            ],
            operation: { v in try resizeOperation(v) }, formats: anyByteFormat),
        FilterDescriptor(
            builtIn: "straighten", summary: "rotates about the centre and scales up so no empty corners show",
            parameters: [.number("angle", -Double.pi...Double.pi, 0, "radians, counter-clockwise")],
            operation: { v in
                let angle = v.double("angle")
                return WarpOperation { width, height in Warp.straighten(angle: angle, width: width, height: height) }
            }, formats: anyByteFormat),
    ]
}

extension BuiltInFilters {
    static func resizeSideParameter(_ name: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, type: .int, minimum: 0, maximum: Double(maxResizeSide), defaultValue: .int(0), summary: summary)
    }

    /// `resize` from its parameters: a size in pixels, or factors bounded like `affine`'s.
    static func resizeOperation(_ v: ParameterValues) throws -> ResizeOperation {
        // Exact: the sides are integers within 0…maxResizeSide.
        let width = Int(v.double("width")), height = Int(v.double("height"))
        if width > 0 || height > 0 {
            if let factor = ["scale", "aspectRatio"].first(where: v.isSet) {
                throw FramelabError(.badInput, "filter 'resize': give either 'scale'/'aspectRatio' or 'width'/'height', "
                                    + "not '\(factor)' with a size")
            }
            return ResizeOperation(size: .exact(width: width > 0 ? width : nil, height: height > 0 ? height : nil))
        }
        let scale = v.double("scale"), horizontal = scale * v.double("aspectRatio")
        guard horizontal <= maxAffineScale else {
            throw FramelabError(.badInput, "filter 'resize': scale × aspectRatio = \(horizontal) enlarges the width more than "
                                + "the \(Int(maxAffineScale))× an output side may grow")
        }
        return ResizeOperation(size: .scale(x: horizontal, y: scale))
    }

    static func cropParameter(_ name: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, type: .int, minimum: 0, maximum: Double(maxCropCoordinate), defaultValue: .int(0),
                      summary: summary)
    }
}

extension Warp {
    /// Rotation by `angle` about the centre, scaled by |cos| + max(w/h, h/w)·|sin| so the
    /// rotated image covers the whole frame (CIStraightenFilter's behaviour).
    static func straighten(angle: Double, width: Int, height: Int) -> Warp {
        let w = Double(width), h = Double(height)
        let s = abs(cos(angle)) + max(w / h, h / w) * abs(sin(angle))
        let t = Affine2D.translation(w / 2, h / 2)
            .after(.scale(s, s))
            .after(.rotation(angle))
            .after(.translation(-w / 2, -h / 2))
        return Warp(transform: t, width: width, height: height)
    }
}
