import FramelabCore

/// A filter's reusable output image: reallocated only when the shape changes, so a
/// steady stream of same-size frames allocates nothing.
struct OutputBuffer {
    private var image: Mat?

    mutating func image(format: PixelFormat, width: Int, height: Int) -> Mat {
        if let image, image.format == format, image.width == width, image.height == height {
            return image
        }
        let fresh = Mat(format: format, width: width, height: height)
        image = fresh
        return fresh
    }
}
