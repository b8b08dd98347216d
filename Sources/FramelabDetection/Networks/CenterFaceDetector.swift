import FramelabCore
import FramelabCV
import FramelabElements

/// `centerface`: CenterFace (Star-Clouds, MIT), an anchor-free face detector in ONNX run by
/// OpenCV DNN, decoded here (`CenterFaceDecoder`): a face-centre heatmap, box sizes, centre
/// offsets and five landmarks per 4x4-pixel cell. The image is resized so both sides are
/// multiples of 32 (the network's coarsest stride), RGB order, no mean or scaling.
public final class CenterFaceDetector: FaceDetector {
    public let name = CenterFaceDetector.detectorName
    public static let detectorName = "centerface"
    public let settings: Settings
    let network: DNNNetwork

    public struct Settings: Sendable, Equatable {
        /// The input's longer side before rounding up to a multiple of 32; 0 = the image's
        /// own size (at most `largestInput`).
        public var inputSize: Int
        public var scoreThreshold: Double
        public var nmsThreshold: Double

        public init(inputSize: Int = 0, scoreThreshold: Double = 0.35, nmsThreshold: Double = 0.3) {
            self.inputSize = inputSize
            self.scoreThreshold = scoreThreshold
            self.nmsThreshold = nmsThreshold
        }

        /// high = the image's own resolution (as CenterFace is published); low = longer side 320.
        init(_ p: DetectorParameters) {
            self.init(inputSize: p.string("accuracy") == "low" ? 320 : 0,
                      scoreThreshold: p.double("score"), nmsThreshold: p.double("nms"))
            if p.isSet("input-size") { inputSize = p.int("input-size") }
        }
    }

    /// The longest input side used, whatever the image: the network's memory grows with
    /// the input's area, so a huge image is scaled down to this first.
    public static let largestInput = 2048

    public init(modelPath: String, settings: Settings = Settings()) throws {
        self.settings = settings
        try ModelFiles.requireFiles([modelPath], detector: Self.detectorName, parameter: "model")
        do {
            network = try DNNNetwork(onnx: modelPath)
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "detector '\(Self.detectorName)': \(error.message)")
        }
    }

    /// The input size for an image: its longer side taken to `inputSize` (or kept, at most
    /// `largestInput`), aspect kept, each side rounded up to a multiple of 32.
    func inputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let longer = Double(max(width, height, 1))
        let target = settings.inputSize > 0 ? Double(settings.inputSize) : min(longer, Double(Self.largestInput))
        let ratio = target / longer
        func rounded(_ side: Int) -> Int { max(32, Int((Double(side) * ratio / 32).rounded(.up)) * 32) }
        return (rounded(width), rounded(height))
    }

    public func detect(_ image: Mat) throws -> [FaceDetection] {
        guard image.width > 0, image.height > 0 else { return [] }
        let input = inputSize(width: image.width, height: image.height)
        let outputs = try network.forward(image: image, width: input.width, height: input.height, swapRB: true)
        guard let maps = CenterFaceDecoder.Maps(outputs) else {
            throw FramelabError(.processing, "detector '\(name)': the network's outputs have shapes "
                + "\(outputs.map(\.shape)), expected four [1, C, H, W] maps with C = 1, 2, 2, 10 (is it CenterFace?)")
        }
        let decoder = CenterFaceDecoder(
            scoreThreshold: settings.scoreThreshold, nmsThreshold: settings.nmsThreshold,
            inputWidth: Double(input.width), inputHeight: Double(input.height),
            scaleX: Double(input.width) / Double(image.width), scaleY: Double(input.height) / Double(image.height))
        return decoder.faces(maps)
    }

    static var descriptor: DetectorDescriptor {
        DetectorDescriptor(
            name: detectorName, summary: "OpenCV DNN: CenterFace (ONNX), boxes, eyes and mouth",
            parameters: [
                ParameterSpec(name: "model", type: .string, defaultValue: .string(ModelFiles.path("centerface.onnx")),
                              summary: "the CenterFace ONNX model"),
                DetectionAccuracy.parameterSpec(summary: "preset: high = the image's own resolution (at most 2048 px); low = longer side 320 px, faster"),
                ParameterSpec(name: "input-size", type: .int, minimum: 0, maximum: Double(largestInput), defaultValue: .int(0),
                              summary: "longer side of the network's input, rounded up to a multiple of 32; 0 = the image's (overrides the preset)"),
                ParameterSpec(name: "score", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.35),
                              summary: "minimum face-centre score"),
                ParameterSpec(name: "nms", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.3),
                              summary: "IoU above which overlapping boxes are suppressed"),
            ]
        ) { p in
            try CenterFaceDetector(modelPath: p.string("model"), settings: Settings(p))
        }
    }
}
