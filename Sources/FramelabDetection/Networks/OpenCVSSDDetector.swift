import FramelabCore
import FramelabCV
import FramelabElements

/// `opencv-ssd`: OpenCV's res10 face detector — a ResNet-10 SSD in Caffe format
/// (`res10_deploy.prototxt` + `res10_300x300_ssd_iter_140000.caffemodel`) — run by OpenCV DNN.
/// The input is the whole image resized to a square (300x300 as trained), mean
/// (104, 177, 123) subtracted, BGR order. The network ends in SSD's DetectionOutput layer,
/// which already suppresses overlaps: its [1, 1, N, 7] output holds (image, class, score,
/// x1, y1, x2, y2) with corners in 0…1. No landmarks.
public final class OpenCVSSDDetector: FaceDetector {
    public let name = OpenCVSSDDetector.detectorName
    public static let detectorName = "opencv-ssd"
    public let settings: Settings
    let network: DNNNetwork

    /// The knobs, resolved from the accuracy preset and the values given explicitly.
    public struct Settings: Sendable, Equatable {
        /// The side of the square the image is resized to.
        public var inputSize: Int
        public var scoreThreshold: Double
        /// Boxes narrower or lower than this many pixels are dropped.
        public var minSize: Int

        public init(inputSize: Int = 300, scoreThreshold: Double = 0.5, minSize: Int = 0) {
            self.inputSize = inputSize
            self.scoreThreshold = scoreThreshold
            self.minSize = minSize
        }

        /// high = 300x300, the size the model was trained at; low = 160x160, about a
        /// quarter of the work, for faces larger than about a tenth of the image.
        init(_ p: DetectorParameters) {
            self.init(inputSize: p.string("accuracy") == "low" ? 160 : 300)
            if p.isSet("input-size") { inputSize = p.int("input-size") }
            scoreThreshold = p.double("score")
            minSize = p.int("min-size")
        }
    }

    public init(prototxt: String, caffemodel: String, settings: Settings = Settings()) throws {
        self.settings = settings
        try ModelFiles.requireFiles([prototxt], detector: Self.detectorName, parameter: "config")
        try ModelFiles.requireFiles([caffemodel], detector: Self.detectorName, parameter: "model")
        do {
            network = try DNNNetwork(caffePrototxt: prototxt, caffemodel: caffemodel)
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "detector '\(Self.detectorName)': \(error.message)")
        }
    }

    public func detect(_ image: Mat) throws -> [FaceDetection] {
        let side = settings.inputSize
        let outputs = try network.forward(image: image, width: side, height: side, mean: (104, 177, 123))
        guard let out = outputs.first, out.shape.count == 4, out.shape[3] == 7 else {
            throw FramelabError(.processing, "detector '\(name)': the network's output has shape "
                + "\(outputs.first?.shape ?? []), expected [1, 1, N, 7] (is the model res10's SSD?)")
        }
        return decode(out, width: Double(image.width), height: Double(image.height))
    }

    /// The faces in a [1, 1, N, 7] DetectionOutput tensor for an image of `width` x `height`:
    /// rows at or above the score threshold, corners scaled to pixels and clipped to the
    /// image, best first. A row with a non-finite value is skipped.
    func decode(_ out: DNNTensor, width: Double, height: Double) -> [FaceDetection] {
        var faces: [FaceDetection] = []
        for row in 0..<(out.values.count / 7) {
            let v = (0..<7).map { Double(out.values[row * 7 + $0]) }
            guard v[2] >= settings.scoreThreshold, v.allSatisfy(\.isFinite) else { continue }
            let x1 = min(max(v[3] * width, 0), width), y1 = min(max(v[4] * height, 0), height)
            let x2 = min(max(v[5] * width, 0), width), y2 = min(max(v[6] * height, 0), height)
            let box = BoundingBox(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
            guard box.width > 0, box.height > 0,
                  box.width >= Double(settings.minSize), box.height >= Double(settings.minSize) else { continue }
            faces.append(FaceDetection(box: box, score: v[2]))
        }
        return faces.sorted { $0.score > $1.score }
    }

    static var descriptor: DetectorDescriptor {
        DetectorDescriptor(
            name: detectorName, summary: "OpenCV DNN: res10 ResNet-10 SSD (Caffe), boxes only",
            parameters: [
                ParameterSpec(name: "config", type: .string, defaultValue: .string(ModelFiles.path("res10_deploy.prototxt")),
                              summary: "the network's Caffe prototxt"),
                ParameterSpec(name: "model", type: .string,
                              defaultValue: .string(ModelFiles.path("res10_300x300_ssd_iter_140000.caffemodel")),
                              summary: "the network's Caffe weights (.caffemodel)"),
                DetectionAccuracy.parameterSpec(summary: "preset: high = 300x300 input (as trained); low = 160x160, faster, misses faces under ~1/10 of the image"),
                ParameterSpec(name: "input-size", type: .int, minimum: 32, maximum: 2048, defaultValue: .int(300),
                              summary: "side of the square input the image is resized to (overrides the preset)"),
                ParameterSpec(name: "score", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.5),
                              summary: "minimum face score"),
                ParameterSpec(name: "min-size", type: .int, minimum: 0, maximum: 100_000, defaultValue: .int(0),
                              summary: "drop boxes narrower or lower than this, in pixels"),
            ],
            modelFiles: { p in [p.string("config"), p.string("model")] }
        ) { p in
            try OpenCVSSDDetector(prototxt: p.string("config"), caffemodel: p.string("model"), settings: Settings(p))
        }
    }
}
