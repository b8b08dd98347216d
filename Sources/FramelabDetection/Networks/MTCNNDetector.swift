import Foundation
import FramelabCore
import FramelabCV
import FramelabElements

/// `mtcnn`: the three-stage MTCNN cascade (P-Net, R-Net, O-Net; Zhang et al. 2016) from
/// `pnet.onnx`, `rnet.onnx` and `onet.onnx` in one folder, each run by OpenCV DNN; the
/// pyramid, proposals, regression, suppression and landmarks are `MTCNNStages`.
public final class MTCNNDetector: FaceDetector {
    public let name = MTCNNDetector.detectorName
    public static let detectorName = "mtcnn"
    public static let networkFiles = ["pnet.onnx", "rnet.onnx", "onet.onnx"]
    public let settings: Settings
    let stages: MTCNNStages

    public struct Settings: Sendable, Equatable {
        /// The smallest face searched for, in pixels (P-Net's 12-pixel window is scaled to it).
        public var minSize: Int
        /// The size ratio between pyramid levels.
        public var factor: Double
        /// The face probability each stage needs: P-Net, R-Net, O-Net.
        public var thresholds: (proposal: Double, refine: Double, output: Double)

        public init(minSize: Int = 20, factor: Double = 0.709, thresholds: (Double, Double, Double) = (0.6, 0.7, 0.7)) {
            self.minSize = minSize
            self.factor = factor
            self.thresholds = thresholds
        }

        public static func == (a: Settings, b: Settings) -> Bool {
            a.minSize == b.minSize && a.factor == b.factor && a.thresholds == b.thresholds
        }

        /// high = faces from 20 px (MTCNN's published setting); low = from 40 px, about a
        /// quarter of P-Net's work.
        init(_ p: DetectorParameters) {
            self.init(minSize: p.string("accuracy") == "low" ? 40 : 20, factor: p.double("factor"),
                      thresholds: (p.double("proposal-score"), p.double("refine-score"), p.double("score")))
            if p.isSet("min-size") { minSize = p.int("min-size") }
        }
    }

    /// Loads the three networks from `modelDirectory`; the error names a missing or broken file.
    public init(modelDirectory: String, settings: Settings = Settings()) throws {
        self.settings = settings
        let paths = Self.modelFiles(in: modelDirectory)
        try ModelFiles.requireFiles(paths, detector: Self.detectorName, parameter: "model-dir")
        do {
            stages = MTCNNStages(pnet: try DNNNetwork(onnx: paths[0]), rnet: try DNNNetwork(onnx: paths[1]),
                                 onet: try DNNNetwork(onnx: paths[2]))
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "detector '\(Self.detectorName)': \(error.message)")
        }
    }

    static func modelFiles(in directory: String) -> [String] {
        networkFiles.map { (directory as NSString).appendingPathComponent($0) }
    }

    public func detect(_ image: Mat) throws -> [FaceDetection] {
        let bgr = image.format == .bgr8 ? image : try image.converted(to: .bgr8)
        var proposals: [MTCNNCandidate] = []
        for scale in MTCNNStages.scales(width: bgr.width, height: bgr.height, minSize: settings.minSize,
                                        factor: settings.factor) {
            proposals += try stages.propose(bgr, scale: scale, threshold: settings.thresholds.proposal)
        }
        proposals = MTCNNCandidate.suppress(proposals, threshold: 0.7).map { $0.regressed(inclusive: false).squared() }
            .filter(\.isFinite)
        let refined = try stages.refine(bgr, proposals, threshold: settings.thresholds.refine)
        let final = try stages.output(bgr, refined, threshold: settings.thresholds.output)
        return final.compactMap { face($0, width: Double(bgr.width), height: Double(bgr.height)) }
    }

    /// The face of a final candidate: box clipped to the image; the image's left eye is the
    /// person's right eye; mouth midway between the mouth corners.
    func face(_ c: MTCNNCandidate, width: Double, height: Double) -> FaceDetection? {
        let x1 = min(max(c.x1, 0), width), y1 = min(max(c.y1, 0), height)
        let x2 = min(max(c.x2, 0), width), y2 = min(max(c.y2, 0), height)
        guard x2 > x1, y2 > y1 else { return nil }
        let p = c.landmarks
        return FaceDetection(
            box: BoundingBox(x: x1, y: y1, width: x2 - x1, height: y2 - y1), score: c.score,
            leftEye: p.count == 5 ? p[1] : nil, rightEye: p.count == 5 ? p[0] : nil,
            mouth: p.count == 5 ? ImagePoint(x: (p[3].x + p[4].x) / 2, y: (p[3].y + p[4].y) / 2) : nil)
    }

    static var descriptor: DetectorDescriptor {
        DetectorDescriptor(
            name: detectorName, summary: "OpenCV DNN: MTCNN P-Net, R-Net, O-Net (ONNX), boxes, eyes and mouth",
            parameters: [
                ParameterSpec(name: "model-dir", type: .string, defaultValue: .string(ModelFiles.path("mtcnn")),
                              summary: "folder holding pnet.onnx, rnet.onnx and onet.onnx"),
                DetectionAccuracy.parameterSpec(summary: "preset: high = faces from 20 px; low = from 40 px, faster"),
                ParameterSpec(name: "min-size", type: .int, minimum: 12, maximum: 100_000, defaultValue: .int(20),
                              summary: "smallest face searched for, in pixels (overrides the preset)"),
                ParameterSpec(name: "factor", type: .float, minimum: 0.1, maximum: 0.95, defaultValue: .float(0.709),
                              summary: "size ratio between pyramid levels"),
                ParameterSpec(name: "proposal-score", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.6),
                              summary: "face probability P-Net needs to propose a window"),
                ParameterSpec(name: "refine-score", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.7),
                              summary: "face probability R-Net needs to keep a box"),
                ParameterSpec(name: "score", type: .float, minimum: 0, maximum: 1, defaultValue: .float(0.7),
                              summary: "face probability O-Net needs to report a face"),
            ],
            modelFiles: { p in modelFiles(in: p.string("model-dir")) }
        ) { p in
            try MTCNNDetector(modelDirectory: p.string("model-dir"), settings: Settings(p))
        }
    }
}
