import FramelabCore

/// Reusable output images (a filter's output, a frame converted for a plugin detector).
///
/// An image is handed out again only when nobody else holds it any more: a serial
/// pipeline gets the same memory back frame after frame (steady state allocates
/// nothing), while a pipeline that keeps several frames in flight (workers, stage
/// pipelining, in-order delivery) gets a different buffer for each frame it still holds.
/// So an output stays valid for as long as its holder keeps it.
public struct OutputBuffer {
    /// Buffers kept for reuse; more frames than this in flight get fresh allocations.
    public static let poolLimit = 8

    private var images: [Mat] = []

    public init() {}

    public mutating func image(format: PixelFormat, width: Int, height: Int) -> Mat {
        for i in images.indices where images[i].format == format && images[i].width == width
            && images[i].height == height && images[i].isOnlyReferenceToPixels() {
            return images[i]
        }
        let fresh = Mat(format: format, width: width, height: height)
        // Buffers of another shape are dropped; then the oldest one makes room.
        images.removeAll { $0.format != format || $0.width != width || $0.height != height }
        if images.count >= Self.poolLimit { images.removeFirst() }
        images.append(fresh)
        return fresh
    }
}
