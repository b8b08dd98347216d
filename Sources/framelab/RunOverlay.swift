import FramelabCore
import FramelabDetection
import FramelabPipeline

/// The detections a frame carries, drawn on a copy of it for `run`'s outputs (the frame
/// itself is left as the stages made it). Frames without detections pass through as they are.
struct RunOverlay {
    /// Stage names by position: `DetectedFaces.stage` is a position among the run's stages.
    let stageNames: [String]

    /// A copy with every detector's faces drawn, nil when the frame has no detector results
    /// or drawing fails (the output then shows the plain frame; a warning says why once).
    func draw(on frame: Frame) -> Mat? {
        let found = frame.annotations.all(DetectedFaces.self)
        guard !found.isEmpty else { return nil }
        do {
            let canvas = try DetectionOverlay.canvas(for: frame.image)
            for (order, result) in found.enumerated() {
                let name = stageNames.indices.contains(result.stage) ? stageNames[result.stage] : "detector \(result.stage)"
                try DetectionOverlay.draw(result.faces, detector: name, color: DetectionOverlay.color(forDetector: order),
                                          on: canvas)
            }
            return canvas
        } catch {
            RunOverlay.warnOnce("framelab: warning: drawing detections failed: \(error)")
            return nil
        }
    }

    nonisolated(unsafe) private static var warned = false
    private static func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        printToStandardError(message)
    }
}
