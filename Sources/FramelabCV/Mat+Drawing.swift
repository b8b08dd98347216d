import CFramelabCV
import FramelabCore

/// Drawing on an image in place (preview overlays, detection boxes). Colours are in the
/// image's channel order (B, G, R[, A]); shapes outside the image are clipped.
extension Mat {
    /// Draws text with OpenCV's Hershey font; (x, y) is the baseline's left end.
    public func drawText(_ text: String, x: Int, y: Int, scale: Double = 1, color: [Double],
                         thickness: Int = 2) throws {
        try withFLImage { image in
            try Self.withColor(color) { c in
                try cvCall("draw text") {
                    fl_cv_put_text(image, text, Int32(clamping: x), Int32(clamping: y), scale, c,
                                   Int32(clamping: thickness), $0, $1)
                }
            }
        }
    }

    /// Draws the outline of the rectangle whose top-left pixel is (x, y).
    public func drawRectangle(x: Int, y: Int, width: Int, height: Int, color: [Double], thickness: Int = 2) throws {
        try withFLImage { image in
            try Self.withColor(color) { c in
                try cvCall("draw rectangle") {
                    fl_cv_draw_rect(image, Int32(clamping: x), Int32(clamping: y), Int32(clamping: width),
                                    Int32(clamping: height), c, Int32(clamping: thickness), $0, $1)
                }
            }
        }
    }

    /// Draws a circle; a negative thickness fills it.
    public func drawCircle(x: Int, y: Int, radius: Int, color: [Double], thickness: Int = -1) throws {
        try withFLImage { image in
            try Self.withColor(color) { c in
                try cvCall("draw circle") {
                    fl_cv_draw_circle(image, Int32(clamping: x), Int32(clamping: y), Int32(clamping: max(0, radius)),
                                      c, Int32(clamping: thickness), $0, $1)
                }
            }
        }
    }

    /// The four doubles the bridge reads, padded with zeros.
    private static func withColor<R>(_ color: [Double], _ body: (UnsafePointer<Double>) throws -> R) rethrows -> R {
        let c = Array((color + [0, 0, 0, 0]).prefix(4))
        return try c.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
