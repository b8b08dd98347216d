import FramelabCore

/// A reusable output image (a filter's output, a frame converted for a plugin detector):
/// reallocated only when the shape changes, so a steady stream of same-size frames
/// allocates nothing.
public struct OutputBuffer {
    private var image: Mat?

    public init() {}

    public mutating func image(format: PixelFormat, width: Int, height: Int) -> Mat {
        if let image, image.format == format, image.width == width, image.height == height {
            return image
        }
        let fresh = Mat(format: format, width: width, height: height)
        image = fresh
        return fresh
    }
}
