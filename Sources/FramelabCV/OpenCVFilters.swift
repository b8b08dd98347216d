import CFramelabCV
import FramelabCore

/// OpenCV's versions of the built-in filter operations, run on headers over `Mat` memory
/// (no copies). They are the references the built-in paths are measured against.
public enum OpenCVFilters {
    /// cv::transform with `matrix` (channels rows × channels + 1 columns, last column the
    /// bias) in the image's channel order.
    public static func transform(_ input: Mat, into output: Mat, matrix: [Double]) throws {
        let cn = input.format.channels
        precondition(matrix.count == cn * (cn + 1), "transform: matrix must be \(cn)x\(cn + 1)")
        try input.withFLImage { src in
            try output.withFLImage { dst in
                try matrix.withUnsafeBufferPointer { m in
                    try cvCall("OpenCV transform") { fl_cv_transform(src, dst, m.baseAddress, $0, $1) }
                }
            }
        }
    }

    /// cv::LUT with one 256-entry table per channel, in the image's channel order.
    public static func lookUp(_ input: Mat, into output: Mat, tables: [[UInt8]]) throws {
        let cn = input.format.channels
        precondition(tables.count == cn && tables.allSatisfy { $0.count == 256 }, "LUT: need \(cn) tables of 256")
        var interleaved = [UInt8](repeating: 0, count: 256 * cn)
        for i in 0..<256 { for c in 0..<cn { interleaved[i * cn + c] = tables[c][i] } }
        try input.withFLImage { src in
            try output.withFLImage { dst in
                try interleaved.withUnsafeBufferPointer { t in
                    try cvCall("OpenCV LUT") { fl_cv_lut(src, dst, t.baseAddress, $0, $1) }
                }
            }
        }
    }

    /// cv::warpAffine (bilinear, zero border); `m` maps source to destination with pixel
    /// centres at integer coordinates, row-major 2x3.
    public static func warpAffine(_ input: Mat, into output: Mat, matrix m: [Double]) throws {
        precondition(m.count == 6, "warpAffine: matrix must be 2x3")
        try input.withFLImage { src in
            try output.withFLImage { dst in
                try m.withUnsafeBufferPointer { mp in
                    try cvCall("OpenCV warpAffine") { fl_cv_warp_affine(src, dst, mp.baseAddress, $0, $1) }
                }
            }
        }
    }

    /// cv::GaussianBlur with a (2·radius + 1)-square kernel and replicated borders.
    public static func gaussianBlur(_ input: Mat, into output: Mat, radius: Int, sigma: Double) throws {
        try input.withFLImage { src in
            try output.withFLImage { dst in
                try cvCall("OpenCV GaussianBlur") { fl_cv_gaussian_blur(src, dst, Int32(radius), sigma, $0, $1) }
            }
        }
    }

    /// How `resize` interpolates.
    public enum ResizeMethod: Int32, Sendable {
        /// INTER_LANCZOS4: an 8-tap Lanczos kernel, not widened when shrinking (it aliases).
        case lanczos4 = 0
        /// INTER_AREA: averages the covered pixel area when shrinking.
        case area = 1
    }

    /// cv::resize to `output`'s size.
    public static func resize(_ input: Mat, into output: Mat, method: ResizeMethod = .lanczos4) throws {
        try input.withFLImage { src in
            try output.withFLImage { dst in
                try cvCall("OpenCV resize") { fl_cv_resize_filter(src, dst, method.rawValue, $0, $1) }
            }
        }
    }

    /// cv::blendLinear with weights mask/255 and 1 − mask/255.
    public static func blendWithMask(foreground: Mat, background: Mat, mask: Mat, into output: Mat) throws {
        try foreground.withFLImage { f in
            try background.withFLImage { b in
                try mask.withFLImage { m in
                    try output.withFLImage { d in
                        try cvCall("OpenCV blendLinear") { fl_cv_blend_mask(f, b, m, d, $0, $1) }
                    }
                }
            }
        }
    }

    /// Premultiplied source-over from OpenCV arithmetic (multiply, add).
    public static func sourceOver(top: Mat, bottom: Mat, into output: Mat) throws {
        try top.withFLImage { t in
            try bottom.withFLImage { b in
                try output.withFLImage { d in
                    try cvCall("OpenCV source-over") { fl_cv_source_over(t, b, d, $0, $1) }
                }
            }
        }
    }
}
