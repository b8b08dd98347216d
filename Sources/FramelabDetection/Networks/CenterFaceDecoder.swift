import Foundation
import FramelabCV

/// Turns CenterFace's four output maps into faces. The network sees the image at 1/4
/// resolution per output cell: `heatmap` (1 channel) is the face-centre probability,
/// `scale` (2: log of height/4, log of width/4), `offset` (2: the centre's sub-cell y, x)
/// and `landmarks` (10: five y, x pairs relative to the box's corner, in box heights and
/// widths). Points are left eye, right eye, nose, left and right mouth corner as they
/// appear in the image — so the first eye is the person's right eye.
struct CenterFaceDecoder {
    var scoreThreshold: Double
    var nmsThreshold: Double
    /// The network's input size and the ratio of input pixels to image pixels on each axis.
    var inputWidth: Double, inputHeight: Double
    var scaleX: Double, scaleY: Double

    static let stride = 4.0

    /// The four maps, checked: each [1, C, H, W] with C = 1, 2, 2, 10 and one H x W.
    struct Maps {
        let heatmap: DNNTensor, scale: DNNTensor, offset: DNNTensor, landmarks: DNNTensor
        let rows: Int, columns: Int

        init?(_ outputs: [DNNTensor]) {
            guard outputs.count == 4, outputs.allSatisfy({ $0.shape.count == 4 && $0.shape[0] == 1 }),
                  outputs.map({ $0.shape[1] }) == [1, 2, 2, 10] else { return nil }
            let (h, w) = (outputs[0].shape[2], outputs[0].shape[3])
            guard outputs.allSatisfy({ $0.shape[2] == h && $0.shape[3] == w }) else { return nil }
            heatmap = outputs[0]; scale = outputs[1]; offset = outputs[2]; landmarks = outputs[3]
            rows = h; columns = w
        }

        func value(_ t: DNNTensor, _ channel: Int, _ y: Int, _ x: Int) -> Double {
            Double(t.values[(channel * rows + y) * columns + x])
        }
    }

    func faces(_ maps: Maps) -> [FaceDetection] {
        var found: [FaceDetection] = []
        for y in 0..<maps.rows {
            for x in 0..<maps.columns {
                let score = maps.value(maps.heatmap, 0, y, x)
                // A NaN score fails the comparison and is skipped.
                guard score > scoreThreshold else { continue }
                if let face = face(maps, y, x, score) { found.append(face) }
            }
        }
        return NonMaximumSuppression.faces(found, threshold: nmsThreshold)
    }

    /// The face centred in cell (y, x), in image pixels; nil when a value is not finite.
    private func face(_ maps: Maps, _ y: Int, _ x: Int, _ score: Double) -> FaceDetection? {
        let h = exp(maps.value(maps.scale, 0, y, x)) * Self.stride
        let w = exp(maps.value(maps.scale, 1, y, x)) * Self.stride
        let cy = (Double(y) + maps.value(maps.offset, 0, y, x) + 0.5) * Self.stride
        let cx = (Double(x) + maps.value(maps.offset, 1, y, x) + 0.5) * Self.stride
        // exp overflows to infinity on a large log-size; NaN passes min/max unchanged.
        guard [h, w, cy, cx].allSatisfy(\.isFinite) else { return nil }
        let x1 = min(max(cx - w / 2, 0), inputWidth), y1 = min(max(cy - h / 2, 0), inputHeight)
        let x2 = min(x1 + w, inputWidth), y2 = min(y1 + h, inputHeight)
        var points: [ImagePoint] = []
        for k in 0..<5 {
            let py = maps.value(maps.landmarks, 2 * k, y, x) * h + y1
            let px = maps.value(maps.landmarks, 2 * k + 1, y, x) * w + x1
            points.append(ImagePoint(x: px / scaleX, y: py / scaleY))
        }
        guard [x1, y1, x2, y2].allSatisfy(\.isFinite), points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }),
              x2 > x1, y2 > y1 else { return nil }
        return FaceDetection(
            box: BoundingBox(x: x1 / scaleX, y: y1 / scaleY, width: (x2 - x1) / scaleX, height: (y2 - y1) / scaleY),
            score: score, leftEye: points[1], rightEye: points[0],
            mouth: ImagePoint(x: (points[3].x + points[4].x) / 2, y: (points[3].y + points[4].y) / 2))
    }
}
