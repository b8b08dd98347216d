import FramelabCore
import FramelabCV
import FramelabElements

/// `opencv-haar` and `opencv-lbp`: OpenCV's CascadeClassifier with any cascade XML.
/// Scores are OpenCV's neighbour counts (raw windows merged into each box).
public final class OpenCVCascadeDetector: FaceDetector {
    public let name: String
    public let settings: SlidingWindowSettings
    let classifier: CascadeClassifier
    let landmarks: FacialLandmarkFinder?

    public init(name: String, cascadePath: String, settings: SlidingWindowSettings, findLandmarks: Bool,
                eyeCascade: String = CascadeFiles.eye, mouthCascade: String = CascadeFiles.smile) throws {
        self.name = name
        self.settings = settings
        classifier = try CascadeClassifier(path: cascadePath)
        if findLandmarks {
            let eyes = try CascadeClassifier(path: eyeCascade)
            let mouth = try CascadeClassifier(path: mouthCascade)
            landmarks = FacialLandmarkFinder(
                eyes: { region, s in try Self.run(eyes, region, s) },
                mouth: { region, s in try Self.run(mouth, region, s) })
        } else {
            landmarks = nil
        }
    }

    public func detect(_ image: Mat) throws -> [FaceDetection] {
        let gray = try image.converted(to: .gray8)
        let faces = try Self.run(classifier, gray, settings)
        return try landmarks?.annotate(faces, in: gray) ?? faces
    }

    static func run(_ c: CascadeClassifier, _ image: Mat, _ s: SlidingWindowSettings) throws -> [FaceDetection] {
        try c.detect(image, scaleFactor: s.scaleFactor, minNeighbours: s.minNeighbours, minSize: s.minSize,
                     maxSize: s.maxSize).map {
            FaceDetection(box: BoundingBox(x: $0.x, y: $0.y, width: $0.width, height: $0.height), score: $0.score)
        }
    }

    /// Parameters shared by the cascade detectors, with `defaultCascade` for `cascade`.
    static func parameterSpecs(defaultCascade: String) -> [ParameterSpec] {
        [ParameterSpec(name: "cascade", type: .string, defaultValue: .string(defaultCascade),
                       summary: "cascade XML file (OpenCV format)")]
            + SlidingWindowSettings.parameterSpecs
            + [ParameterSpec(name: "landmarks", type: .bool, defaultValue: .bool(false),
                             summary: "also find eyes and mouth inside each face with the eye and smile cascades"),
               ParameterSpec(name: "eye-cascade", type: .string, defaultValue: .string(CascadeFiles.eye),
                             summary: "cascade XML for eyes (with landmarks=true)"),
               ParameterSpec(name: "mouth-cascade", type: .string, defaultValue: .string(CascadeFiles.smile),
                             summary: "cascade XML for the mouth (with landmarks=true)")]
    }

    static func descriptor(name: String, summary: String, defaultCascade: String) -> DetectorDescriptor {
        DetectorDescriptor(name: name, summary: summary, parameters: parameterSpecs(defaultCascade: defaultCascade)) { p in
            try OpenCVCascadeDetector(name: name, cascadePath: p.string("cascade"), settings: SlidingWindowSettings(p),
                                      findLandmarks: p.bool("landmarks"), eyeCascade: p.string("eye-cascade"),
                                      mouthCascade: p.string("mouth-cascade"))
        }
    }
}
