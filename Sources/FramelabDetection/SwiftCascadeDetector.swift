import FramelabCore
import FramelabCV

/// `cascade`: Framelab's own SIMD Viola-Jones evaluator over an OpenCV Haar cascade XML.
/// Same parameters and scores as `opencv-haar`. With landmarks=true the eye and smile
/// cascades run on this evaluator too (the smile cascade's 45-degree features included).
public final class SwiftCascadeDetector: FaceDetector {
    public let name = "cascade"
    public let settings: SlidingWindowSettings
    let evaluator: HaarCascadeEvaluator
    let landmarks: FacialLandmarkFinder?

    public init(cascadePath: String, settings: SlidingWindowSettings, findLandmarks: Bool,
                eyeCascade: String = CascadeFiles.eye, mouthCascade: String = CascadeFiles.smile) throws {
        self.settings = settings
        evaluator = try HaarCascadeEvaluator(path: cascadePath)
        if findLandmarks {
            let eyes = try HaarCascadeEvaluator(path: eyeCascade)
            let mouth = try HaarCascadeEvaluator(path: mouthCascade)
            landmarks = FacialLandmarkFinder(
                eyes: { region, s in try eyes.detect(region, settings: s) },
                mouth: { region, s in try mouth.detect(region, settings: s) })
        } else {
            landmarks = nil
        }
    }

    public func detect(_ image: Mat) throws -> [FaceDetection] {
        let gray = try image.converted(to: .gray8)
        let faces = try evaluator.detect(gray, settings: settings)
        return try landmarks?.annotate(faces, in: gray) ?? faces
    }

    static let descriptor = DetectorDescriptor(
        name: "cascade", summary: "Framelab's SIMD Viola-Jones evaluator (OpenCV Haar cascade XML)",
        parameters: OpenCVCascadeDetector.parameterSpecs(defaultCascade: CascadeFiles.haarFrontalFace)) { p in
            try SwiftCascadeDetector(cascadePath: p.string("cascade"), settings: SlidingWindowSettings(p),
                                     findLandmarks: p.bool("landmarks"), eyeCascade: p.string("eye-cascade"),
                                     mouthCascade: p.string("mouth-cascade"))
        }
}
