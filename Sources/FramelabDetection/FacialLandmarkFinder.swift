import FramelabCore

/// Finds eyes and mouth inside face boxes with the eye and smile cascades, as the
/// classic OpenCV face demo does: eyes in the upper part of the face, the mouth in the
/// lower part. Which cascade evaluator runs them is the caller's choice (`finder`).
public struct FacialLandmarkFinder {
    /// Boxes and scores of one cascade inside a region (a zero-copy view of the frame).
    public typealias RegionDetector = (_ region: Mat, _ settings: SlidingWindowSettings) throws -> [FaceDetection]

    let eyes: RegionDetector
    let mouth: RegionDetector

    public init(eyes: @escaping RegionDetector, mouth: @escaping RegionDetector) {
        self.eyes = eyes
        self.mouth = mouth
    }

    /// Fills `leftEye`, `rightEye` and `mouth` of each face where the cascades find them.
    public func annotate(_ faces: [FaceDetection], in image: Mat) throws -> [FaceDetection] {
        try faces.map { try annotate($0, in: image) }
    }

    func annotate(_ face: FaceDetection, in image: Mat) throws -> FaceDetection {
        var out = face
        let x0 = max(0, Int(face.box.x)), y0 = max(0, Int(face.box.y))
        let x1 = min(image.width, Int(face.box.maxX)), y1 = min(image.height, Int(face.box.maxY))
        let w = x1 - x0, h = y1 - y0
        guard w >= 24, h >= 24 else { return out }

        // Eyes: the upper 60 % of the face, at least a tenth of its width.
        let eyeBand = image.view(x: x0, y: y0, width: w, height: h * 6 / 10)
        let eyeBoxes = try eyes(eyeBand, SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 3,
                                                                minSize: max(w / 10, 8), maxSize: w / 2))
        let bestTwo = eyeBoxes.sorted(by: Self.better).prefix(2).sorted { $0.box.x < $1.box.x }
        if bestTwo.count == 2 {
            // On the image's left is the person's right eye.
            out.rightEye = offset(bestTwo[0].box.center, x0, y0)
            out.leftEye = offset(bestTwo[1].box.center, x0, y0)
        }

        // Mouth: the lower 40 % of the face; the smile cascade needs many neighbours.
        let mouthTop = y0 + h * 6 / 10
        let mouthBand = image.view(x: x0, y: mouthTop, width: w, height: y1 - mouthTop)
        let mouths = try mouth(mouthBand, SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 12,
                                                                 minSize: max(w / 6, 8), maxSize: w))
        if let best = mouths.min(by: Self.better) {
            out.mouth = offset(best.box.center, x0, mouthTop)
        }
        return out
    }

    /// Higher score first; equal scores (neighbour counts tie often) by a rule that does
    /// not depend on the order a detector lists its boxes in — larger, then higher, then
    /// further left — so every cascade evaluator picks the same eyes and mouth.
    static func better(_ a: FaceDetection, _ b: FaceDetection) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.box.area != b.box.area { return a.box.area > b.box.area }
        if a.box.y != b.box.y { return a.box.y < b.box.y }
        return a.box.x < b.box.x
    }

    private func offset(_ p: ImagePoint, _ dx: Int, _ dy: Int) -> ImagePoint {
        ImagePoint(x: p.x + Double(dx), y: p.y + Double(dy))
    }
}
