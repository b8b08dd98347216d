import CFramelabCV
import FramelabCore

extension Mat {
    /// Calls `body` with an `fl_image` header over this image's memory: the bridge's
    /// zero-copy view, from which C++ builds a `cv::Mat` header. Do not let it escape.
    @discardableResult
    func withFLImage<R>(_ body: (UnsafePointer<fl_image>) throws -> R) rethrows -> R {
        try withUnsafeMutableBytes { bytes in
            var image = fl_image(format: format.rawValue, width: Int32(width), height: Int32(height),
                                 stride: Int64(stride), data: bytes.baseAddress)
            return try body(&image)
        }
    }

    /// Wraps an image OpenCV allocated, without copying; it is freed with the last `Mat`.
    init(adopting cvmat: OpaquePointer) {
        let image = fl_cvmat_image(cvmat)
        guard let format = PixelFormat(rawValue: image.format) else {
            fatalError("bridge returned unknown pixel format \(image.format)")
        }
        let handle = CVMatHandle(cvmat)
        self.init(borrowing: image.data, format: format, width: Int(image.width), height: Int(image.height),
                  stride: Int(image.stride), owner: handle)
    }

    /// The data pointer of a `cv::Mat` header built over this image: the same address
    /// as the image's own pixels, because the bridge never copies.
    public var openCVHeaderAddress: UnsafeRawPointer? {
        withFLImage { fl_cv_header_data($0) }
    }

    /// The address of pixel (0, 0), for identity checks (never dereference it outside a closure).
    public var pixelAddress: UnsafeRawPointer? {
        withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
    }

    /// Fills a rectangle through OpenCV (`cv::Mat::setTo` on a header over this memory).
    public func openCVFill(x: Int, y: Int, width: Int, height: Int, value: [Double]) throws {
        let v = (value + [0, 0, 0, 0]).prefix(4).map { $0 }
        try withFLImage { image in
            try v.withUnsafeBufferPointer { vp in
                try cvCall("fill rectangle") {
                    fl_cv_fill_rect(image, Int32(x), Int32(y), Int32(width), Int32(height), vp.baseAddress, $0, $1)
                }
            }
        }
    }

    /// Converts into `destination` (same size, any format) with OpenCV's cvtColor / convertTo.
    public func convert(into destination: Mat) throws {
        precondition(width == destination.width && height == destination.height, "convert: sizes differ")
        try withFLImage { src in
            try destination.withFLImage { dst in
                try cvCall("convert \(format) to \(destination.format)") { fl_cv_convert(src, dst, $0, $1) }
            }
        }
    }

    /// A new image in `format`, converted with OpenCV (self when the format already matches).
    public func converted(to format: PixelFormat) throws -> Mat {
        if format == self.format { return self }
        let out = Mat(format: format, width: width, height: height)
        try convert(into: out)
        return out
    }
}

/// Owns one OpenCV-allocated image; frees it when the last `Mat` over it is gone.
final class CVMatHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { fl_cvmat_release(pointer) }
}

extension Mat {
    /// Rotates clockwise by 0, 90, 180 or 270 degrees, then mirrors left-right if asked,
    /// into `destination` (same format; width and height swapped for 90 and 270).
    public func orient(into destination: Mat, degrees: Int, mirror: Bool) throws {
        try withFLImage { src in
            try destination.withFLImage { dst in
                try cvCall("orient \(degrees)° mirror \(mirror)") {
                    fl_cv_orient(src, dst, Int32(degrees), mirror ? 1 : 0, $0, $1)
                }
            }
        }
    }
}
