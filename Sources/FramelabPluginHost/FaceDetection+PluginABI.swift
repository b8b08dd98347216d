import CFramelabPlugin
import FramelabDetection

/// Detector plugins report `fl_plugin_detection`s; the host turns them into the
/// `FaceDetection` every Framelab detector returns, so plugin and built-in detectors
/// share one result type (and one `FaceDetector` protocol).
extension FaceDetection {
    init(_ d: fl_plugin_detection) {
        let eyes = d.landmarks & UInt32(FL_DETECTION_HAS_EYES) != 0
        let hasMouth = d.landmarks & UInt32(FL_DETECTION_HAS_MOUTH) != 0
        self.init(box: BoundingBox(x: Double(d.x), y: Double(d.y), width: Double(d.width), height: Double(d.height)),
                  score: Double(d.score),
                  leftEye: eyes ? ImagePoint(x: Double(d.left_eye.x), y: Double(d.left_eye.y)) : nil,
                  rightEye: eyes ? ImagePoint(x: Double(d.right_eye.x), y: Double(d.right_eye.y)) : nil,
                  mouth: hasMouth ? ImagePoint(x: Double(d.mouth.x), y: Double(d.mouth.y)) : nil)
    }

    /// True when every coordinate is finite and the box has a non-negative size.
    var isWellFormed: Bool {
        [box.x, box.y, box.width, box.height, score].allSatisfy(\.isFinite) && box.width >= 0 && box.height >= 0
    }

    /// The ABI's form, for a worker passing detections back through shared memory.
    var cValue: fl_plugin_detection {
        var d = fl_plugin_detection()
        d.x = Float(box.x); d.y = Float(box.y); d.width = Float(box.width); d.height = Float(box.height)
        d.score = Float(score)
        if let leftEye, let rightEye {
            d.landmarks |= UInt32(FL_DETECTION_HAS_EYES)
            d.left_eye = fl_plugin_point(x: Float(leftEye.x), y: Float(leftEye.y))
            d.right_eye = fl_plugin_point(x: Float(rightEye.x), y: Float(rightEye.y))
        }
        if let mouth {
            d.landmarks |= UInt32(FL_DETECTION_HAS_MOUTH)
            d.mouth = fl_plugin_point(x: Float(mouth.x), y: Float(mouth.y))
        }
        return d
    }
}
