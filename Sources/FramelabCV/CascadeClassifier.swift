import CFramelabCV
import FramelabCore

/// One raw detection from OpenCV: a box, a score and (YuNet only) five landmarks.
public struct CVDetection: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    /// Cascades: the number of raw windows merged into the box. YuNet: the face score.
    public var score: Double
    /// YuNet's landmarks: right eye, left eye, nose tip, right and left mouth corners.
    public var landmarks: [(x: Double, y: Double)]

    public static func == (a: CVDetection, b: CVDetection) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.score == b.score
    }

    init(_ d: fl_detection, withLandmarks: Bool) {
        x = Double(d.x); y = Double(d.y); width = Double(d.width); height = Double(d.height)
        score = Double(d.score)
        var points: [(x: Double, y: Double)] = []
        if withLandmarks {
            withUnsafeBytes(of: d.points) { raw in
                let p = raw.bindMemory(to: Float.self)
                for k in 0..<5 { points.append((Double(p[2 * k]), Double(p[2 * k + 1]))) }
            }
        }
        landmarks = points
    }
}

/// Reads detections from a bridge call that fills a caller array, growing it when needed.
func collectDetections(withLandmarks: Bool,
                       _ call: (UnsafeMutablePointer<fl_detection>, Int32, UnsafeMutablePointer<Int32>) throws -> Void)
    rethrows -> [CVDetection] {
    var capacity = 256
    while true {
        var count: Int32 = 0
        var buffer = [fl_detection](repeating: fl_detection(), count: capacity)
        try buffer.withUnsafeMutableBufferPointer { try call($0.baseAddress!, Int32(capacity), &count) }
        if Int(count) <= capacity {
            return buffer.prefix(Int(count)).map { CVDetection($0, withLandmarks: withLandmarks) }
        }
        capacity = Int(count)
    }
}

/// OpenCV's `cv::CascadeClassifier` (Haar or LBP cascade XML). One instance per thread.
public final class CascadeClassifier {
    private let handle: OpaquePointer
    public let path: String

    /// Loads `path`; the error names the file when it is missing or not a cascade.
    public init(path: String) throws {
        self.path = path
        handle = try cvOpen("cascade '\(path)'") { fl_cascade_load(path, $0, $1) }
    }

    deinit { fl_cascade_free(handle) }

    public var isLBP: Bool { fl_cascade_is_lbp(handle) != 0 }

    /// The training window (for example 24x24 for the frontal-face Haar cascades).
    public var windowSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        fl_cascade_window(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// `detectMultiScale`; `maxSize` nil means no limit. Scores are neighbour counts.
    public func detect(_ image: Mat, scaleFactor: Double, minNeighbours: Int, minSize: Int,
                       maxSize: Int? = nil) throws -> [CVDetection] {
        try image.withFLImage { img in
            try collectDetections(withLandmarks: false) { out, capacity, count in
                try cvCall("cascade '\(path)'") {
                    fl_cascade_detect(handle, img, scaleFactor, Int32(minNeighbours), Int32(minSize), Int32(minSize),
                                      Int32(maxSize ?? 0), Int32(maxSize ?? 0), out, capacity, count, $0, $1)
                }
            }
        }
    }
}

/// OpenCV's `cv::FaceDetectorYN` over a YuNet ONNX model. One instance per thread.
public final class YuNetFaceDetector {
    private let handle: OpaquePointer
    public let modelPath: String

    public init(modelPath: String, scoreThreshold: Double, nmsThreshold: Double, topK: Int) throws {
        self.modelPath = modelPath
        handle = try cvOpen("YuNet model '\(modelPath)'") {
            fl_yunet_create(modelPath, Float(scoreThreshold), Float(nmsThreshold), Int32(topK), $0, $1)
        }
    }

    deinit { fl_yunet_free(handle) }

    public func detect(_ image: Mat) throws -> [CVDetection] {
        try image.withFLImage { img in
            try collectDetections(withLandmarks: true) { out, capacity, count in
                try cvCall("YuNet '\(modelPath)'") { fl_yunet_detect(handle, img, out, capacity, count, $0, $1) }
            }
        }
    }
}

extension Mat {
    /// A resized copy (bilinear; area averaging when shrinking) made by OpenCV.
    public func resized(width: Int, height: Int) throws -> Mat {
        let out = Mat(format: format, width: width, height: height)
        try withFLImage { src in
            try out.withFLImage { dst in
                try cvCall("resize to \(width)x\(height)") { fl_cv_resize(src, dst, $0, $1) }
            }
        }
        return out
    }
}
