import FramelabCore
import FramelabCV
import FramelabDetection
import Testing

/// Boxes, captions and landmarks drawn on a copy of the frame, checked by pixel.
@Suite struct DetectionOverlayTests {
    func grayFrame() -> Mat {
        let m = Mat(format: .gray8, width: 320, height: 240)
        m.fill([100])
        return m
    }

    @Test func aBoxIsDrawnOnAColourCopyAndTheFrameIsLeftAlone() throws {
        let frame = grayFrame()
        let canvas = try DetectionOverlay.canvas(for: frame)
        #expect(canvas.format == .bgr8)
        let red = DetectionOverlay.color(forDetector: 0)
        let face = FaceDetection(box: BoundingBox(x: 100, y: 80, width: 60, height: 70), score: 0.87,
                                 leftEye: ImagePoint(x: 145, y: 100), rightEye: ImagePoint(x: 115, y: 100))
        try DetectionOverlay.draw([face], detector: "haar", color: red, on: canvas)
        // The left and bottom edges carry the detector's colour (B, G, R).
        #expect(canvas.pixel(x: 100, y: 120) == [0, 0, 255])
        #expect(canvas.pixel(x: 130, y: 149) == [0, 0, 255])
        // An eye is a filled dot; the middle of the box, away from the eyes, is untouched.
        #expect(canvas.pixel(x: 145, y: 100) == [0, 0, 255])
        #expect(canvas.pixel(x: 130, y: 130) == [100, 100, 100])
        // The caption sits above the box: pixels there are drawn (anti-aliased, so reddish
        // rather than exactly red), and none on the other side of the frame.
        func drawn(_ xs: Range<Int>, _ ys: Range<Int>) -> Int {
            var count = 0
            for y in ys { for x in xs where canvas.pixel(x: x, y: y) != [100, 100, 100] { count += 1 } }
            return count
        }
        #expect(drawn(100..<200, 60..<78) > 20)
        #expect(drawn(220..<320, 60..<79) == 0)
        // The frame itself was not drawn on.
        #expect(frame.pixel(x: 100, y: 120) == [100])
    }

    @Test func truthIsGreenAndIgnoredFacesGrey() throws {
        let canvas = try DetectionOverlay.canvas(for: grayFrame())
        try DetectionOverlay.drawTruth([(BoundingBox(x: 10, y: 10, width: 50, height: 50), false),
                                        (BoundingBox(x: 200, y: 100, width: 40, height: 40), true)], on: canvas)
        #expect(canvas.pixel(x: 10, y: 30) == DetectionOverlay.truthColor.prefix(3).map { $0 })
        #expect(canvas.pixel(x: 200, y: 120) == DetectionOverlay.ignoredColor.prefix(3).map { $0 })
    }

    @Test func facesWithNonsenseCoordinatesAreSkippedNotTrapped() throws {
        let canvas = try DetectionOverlay.canvas(for: grayFrame())
        let before = canvas.clone()
        let nonsense = [
            FaceDetection(box: BoundingBox(x: .nan, y: 0, width: 10, height: 10), score: 1),
            FaceDetection(box: BoundingBox(x: 0, y: 0, width: .infinity, height: 10), score: 1),
            FaceDetection(box: BoundingBox(x: 1e300, y: -1e300, width: 10, height: 10), score: 1),
            FaceDetection(box: BoundingBox(x: 5, y: 5, width: -3, height: 10), score: .nan),
        ]
        try DetectionOverlay.draw(nonsense, detector: "x", color: [0, 0, 255, 255], on: canvas)
        #expect(canvas.hasSamePixels(as: before))
        // A box far outside the image but within range is clipped, not an error.
        try DetectionOverlay.draw([FaceDetection(box: BoundingBox(x: -5000, y: 100, width: 6000, height: 20), score: 1,
                                                 mouth: ImagePoint(x: .nan, y: 3))],
                                  detector: "x", color: [0, 0, 255, 255], on: canvas)
        #expect(canvas.pixel(x: 10, y: 100) == [0, 0, 255])
    }

    @Test func aBGRAFrameKeepsItsFormat() throws {
        let frame = Mat(format: .bgra8, width: 64, height: 64)
        frame.fill([1, 2, 3, 255])
        let canvas = try DetectionOverlay.canvas(for: frame)
        #expect(canvas.format == .bgra8 && !canvas.sharesPixels(with: frame))
    }
}
