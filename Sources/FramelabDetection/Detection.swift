/// A point in image pixels (x to the right, y down).
public struct ImagePoint: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// An axis-aligned box in image pixels: top-left corner and size.
public struct BoundingBox: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var area: Double { max(0, width) * max(0, height) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: ImagePoint { ImagePoint(x: x + width / 2, y: y + height / 2) }

    /// Intersection over union, 0 when the boxes do not overlap.
    public func iou(_ other: BoundingBox) -> Double {
        let w = min(maxX, other.maxX) - max(x, other.x)
        let h = min(maxY, other.maxY) - max(y, other.y)
        guard w > 0, h > 0 else { return 0 }
        let inter = w * h
        return inter / (area + other.area - inter)
    }
}

/// One face a detector found: its box, a score (higher is surer; its scale depends on
/// the detector) and, when found, the eye and mouth points, as Core Image's face
/// feature reports them. Eyes are the person's: `leftEye` is the person's left eye,
/// which appears on the right of the image for a frontal face.
///
/// Kept in its own small file so that the plugin ABI's detector kind can share it.
public struct FaceDetection: Sendable, Equatable {
    public var box: BoundingBox
    public var score: Double
    public var leftEye: ImagePoint?
    public var rightEye: ImagePoint?
    public var mouth: ImagePoint?

    public init(box: BoundingBox, score: Double, leftEye: ImagePoint? = nil, rightEye: ImagePoint? = nil,
                mouth: ImagePoint? = nil) {
        self.box = box
        self.score = score
        self.leftEye = leftEye
        self.rightEye = rightEye
        self.mouth = mouth
    }
}
