import FramelabCore
import FramelabCV

/// The evaluator on images of any format: colour to gray is not the cascade's work, so it
/// is OpenCV's cvtColor, as `opencv-haar` does. Kept apart so the evaluator itself builds
/// without OpenCV (the cascade fuzz target).
extension HaarCascadeEvaluator {
    /// Raw windows (before grouping) in image pixels, for tests and for `detect`.
    public func rawWindows(_ image: Mat, settings: SlidingWindowSettings) throws -> [IntRect] {
        rawWindows(gray: try gray8(image), settings: settings)
    }

    /// Grouped detections (see `detect(gray:settings:)`).
    public func detect(_ image: Mat, settings: SlidingWindowSettings) throws -> [FaceDetection] {
        detect(gray: try gray8(image), settings: settings)
    }

    private func gray8(_ image: Mat) throws -> Mat {
        image.format == .gray8 ? image : try image.converted(to: .gray8)
    }
}
