import CFramelabPlugin

/// One detected object, as a detector plugin reports it: a box in pixels, a score, and
/// optional eye and mouth points. (The detection framework may define its own type;
/// this one is what the plugin host returns.)
public struct Detection: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double
    }
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var score: Double
    public var leftEye: Point?
    public var rightEye: Point?
    public var mouth: Point?

    init(_ d: fl_plugin_detection) {
        x = Double(d.x); y = Double(d.y); width = Double(d.width); height = Double(d.height)
        score = Double(d.score)
        let eyes = d.landmarks & UInt32(FL_DETECTION_HAS_EYES) != 0
        let mouth = d.landmarks & UInt32(FL_DETECTION_HAS_MOUTH) != 0
        leftEye = eyes ? Point(x: Double(d.left_eye.x), y: Double(d.left_eye.y)) : nil
        rightEye = eyes ? Point(x: Double(d.right_eye.x), y: Double(d.right_eye.y)) : nil
        self.mouth = mouth ? Point(x: Double(d.mouth.x), y: Double(d.mouth.y)) : nil
    }

    /// True when every coordinate is finite and the box has a non-negative size.
    var isWellFormed: Bool {
        [x, y, width, height, score].allSatisfy(\.isFinite) && width >= 0 && height >= 0
    }
}

extension Detection {
    /// The ABI's form, for a worker passing detections back through shared memory.
    var cValue: fl_plugin_detection {
        var d = fl_plugin_detection()
        d.x = Float(x); d.y = Float(y); d.width = Float(width); d.height = Float(height); d.score = Float(score)
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
