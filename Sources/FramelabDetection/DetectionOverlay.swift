import FramelabCore
import FramelabCV

/// Draws faces on a frame so they can be seen: a box per face, a caption with who found it
/// and the score, dots on the eyes and mouth. Used by `run --record/--snapshot/--preview`
/// and `framelab dataset show`. Coordinates come from detectors and files, so any of them
/// may be NaN or huge: such a face is skipped, never a trap.
public enum DetectionOverlay {
    /// Colours (B, G, R, A) per detector position; ground truth is always `truthColor`.
    public static let palette: [[Double]] = [
        [0, 0, 255, 255],     // red
        [255, 128, 0, 255],   // blue
        [0, 200, 255, 255],   // amber
        [255, 0, 255, 255],   // magenta
        [255, 255, 0, 255],   // cyan
        [0, 128, 255, 255],   // orange
    ]
    public static let truthColor: [Double] = [0, 220, 0, 255]
    public static let ignoredColor: [Double] = [160, 160, 160, 255]

    public static func color(forDetector index: Int) -> [Double] {
        palette[((index % palette.count) + palette.count) % palette.count]
    }

    /// A colour copy of `image` to draw on (BGR for gray and BGR input, BGRA for BGRA), so
    /// the frame itself, which other outputs may still use, is never drawn on.
    public static func canvas(for image: Mat) throws -> Mat {
        switch image.format {
        case .bgra8, .bgr8: return image.clone()
        case .grayF32: return try image.converted(to: .gray8).converted(to: .bgr8)
        default: return try image.converted(to: .bgr8)
        }
    }

    /// Line thickness and caption scale that stay readable from thumbnails to 4K.
    static func thickness(for canvas: Mat) -> Int { max(1, min(canvas.width, canvas.height) / 240) }

    /// Draws one detector's faces, captioned "NAME 0.97".
    public static func draw(_ faces: [FaceDetection], detector name: String, color: [Double], on canvas: Mat) throws {
        let t = thickness(for: canvas)
        for face in faces {
            guard let r = PixelRect(face.box) else { continue }
            try canvas.drawRectangle(x: r.x, y: r.y, width: r.width, height: r.height, color: color, thickness: t)
            try caption(formatCaption(name, score: face.score), at: r, color: color, on: canvas)
            for point in [face.leftEye, face.rightEye, face.mouth].compactMap({ $0 }) {
                guard let x = Int(checked: point.x.rounded()), let y = Int(checked: point.y.rounded()) else { continue }
                try canvas.drawCircle(x: x, y: y, radius: t + 1, color: color)
            }
        }
    }

    /// Draws annotated faces: kept ones in `truthColor`, ignored ones in `ignoredColor`.
    public static func drawTruth(_ boxes: [(box: BoundingBox, ignored: Bool)], on canvas: Mat) throws {
        let t = thickness(for: canvas)
        for face in boxes {
            guard let r = PixelRect(face.box) else { continue }
            try canvas.drawRectangle(x: r.x, y: r.y, width: r.width, height: r.height,
                                     color: face.ignored ? ignoredColor : truthColor, thickness: t)
        }
    }

    static func formatCaption(_ name: String, score: Double) -> String {
        score.isFinite ? "\(name) \(String(format: "%.2f", score))" : name
    }

    /// The caption sits above the box, or inside its top when the box touches the top edge.
    private static func caption(_ text: String, at r: PixelRect, color: [Double], on canvas: Mat) throws {
        let scale = max(0.35, Double(min(canvas.width, canvas.height)) / 1200)
        let above = r.y - 4
        let y = above > Int(14 * scale) ? above : r.y + Int(18 * scale)
        try canvas.drawText(text, x: r.x, y: y, scale: scale, color: color, thickness: max(1, thickness(for: canvas) / 2))
    }
}

/// A box in whole pixels, or nil when a coordinate is not a number or beyond 2^28.
struct PixelRect {
    let x, y, width, height: Int

    init?(_ box: BoundingBox) {
        let limit = Double(1 << 28)
        let values = [box.x, box.y, box.width, box.height]
        guard values.allSatisfy({ $0.isFinite && abs($0) <= limit }), box.width > 0, box.height > 0,
              let x = Int(checked: box.x.rounded()), let y = Int(checked: box.y.rounded()),
              let w = Int(checked: box.width.rounded()), let h = Int(checked: box.height.rounded())
        else { return nil }
        self.x = x; self.y = y; width = max(1, w); height = max(1, h)
    }
}
