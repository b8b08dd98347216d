import FramelabCore
import FramelabCV
import FramelabElements

/// `opencv-yunet`: OpenCV's FaceDetectorYN with a YuNet ONNX model the user gives
/// (`model=PATH`; the 2022 model loads in OpenCV 4.6). Its five landmarks give the eyes
/// and the mouth (the midpoint of the two mouth corners).
public final class YuNetDetector: FaceDetector {
    public let name = "opencv-yunet"
    let detector: YuNetFaceDetector

    public init(modelPath: String, scoreThreshold: Double, nmsThreshold: Double, topK: Int) throws {
        guard !modelPath.isEmpty else {
            throw FramelabError(.badInput, "detector 'opencv-yunet' needs a YuNet ONNX model: "
                + "--detector opencv-yunet:model=PATH (OpenCV 4.6 loads the 2022mar model, face_detection_yunet_2022mar.onnx, "
                + "not the 2023mar one; no package ships it); skipped")
        }
        detector = try YuNetFaceDetector(modelPath: modelPath, scoreThreshold: scoreThreshold,
                                         nmsThreshold: nmsThreshold, topK: topK)
    }

    public func detect(_ image: Mat) throws -> [FaceDetection] {
        let input = image.format == .bgr8 || image.format == .bgra8 ? image : try image.converted(to: .bgr8)
        return try detector.detect(input).map { d in
            let p = d.landmarks
            return FaceDetection(
                box: BoundingBox(x: d.x, y: d.y, width: d.width, height: d.height), score: d.score,
                leftEye: p.count == 5 ? ImagePoint(x: p[1].x, y: p[1].y) : nil,
                rightEye: p.count == 5 ? ImagePoint(x: p[0].x, y: p[0].y) : nil,
                mouth: p.count == 5 ? ImagePoint(x: (p[3].x + p[4].x) / 2, y: (p[3].y + p[4].y) / 2) : nil)
        }
    }

    static let descriptor = DetectorDescriptor(
        name: "opencv-yunet", summary: "OpenCV FaceDetectorYN (YuNet ONNX model given with model=PATH)",
        parameters: [
            ParameterSpec(name: "model", type: .string, defaultValue: .string(""), summary: "YuNet ONNX model file (required)"),
            ParameterSpec(name: "score", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.6),
                          summary: "minimum face score"),
            ParameterSpec(name: "nms", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.3),
                          summary: "IoU above which overlapping boxes are suppressed"),
            ParameterSpec(name: "top-k", type: .int, minimum: 1, maximum: 100_000, defaultValue: .int(5000),
                          summary: "boxes kept before suppression"),
        ]) { p in
            try YuNetDetector(modelPath: p.string("model"), scoreThreshold: p.double("score"),
                              nmsThreshold: p.double("nms"), topK: p.int("top-k"))
        }
}
