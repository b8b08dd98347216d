import FramelabCore

/// What a detector stage found on a frame: travels with the frame as an annotation.
public struct DetectedFaces: FrameAnnotation {
    /// The detector stage's position in the run's stages (the `detector` column of the
    /// detection tables).
    public let stage: Int
    public let faces: [FaceDetection]

    public init(stage: Int, faces: [FaceDetection]) {
        self.stage = stage
        self.faces = faces
    }
}
