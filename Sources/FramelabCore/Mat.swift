/// A typed image header: pixel format, size, row stride and a reference to pixel memory.
///
/// Like `cv::Mat`, copying a `Mat` copies the header, not the pixels: views made with
/// `view(x:y:width:height:)` and copies of a `Mat` all see the same memory. Use
/// `clone()` for a deep, contiguous copy. Pixel memory is reached only inside the
/// `withUnsafe…` closures; do not let the pointer escape them.
public struct Mat: @unchecked Sendable {
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the start of the next (>= width * bytesPerPixel).
    public let stride: Int

    private(set) var storage: MatStorage
    /// Byte offset of pixel (0, 0) inside `storage`.
    let offset: Int

    /// Allocates a zero-filled image with rows padded to `rowAlignment` bytes.
    public init(format: PixelFormat, width: Int, height: Int, rowAlignment: Int = 1) {
        precondition(width >= 0 && height >= 0, "Mat size must not be negative")
        precondition(rowAlignment >= 1, "rowAlignment must be positive")
        let row = width * format.bytesPerPixel
        let stride = (row + rowAlignment - 1) / rowAlignment * rowAlignment
        self.init(format: format, width: width, height: height, stride: stride)
    }

    /// Allocates a zero-filled image with an explicit row stride (for example wider than a row).
    public init(format: PixelFormat, width: Int, height: Int, stride: Int) {
        precondition(stride >= width * format.bytesPerPixel, "stride is shorter than a row")
        self.format = format
        self.width = width
        self.height = height
        self.stride = stride
        storage = MatStorage(allocating: stride * height)
        offset = 0
    }

    /// Wraps memory owned elsewhere without copying it.
    ///
    /// The memory must stay valid while any `Mat` made from it lives; `release`
    /// runs once when the last one is gone. `owner`, if given, is kept alive until then.
    public init(borrowing base: UnsafeMutableRawPointer, format: PixelFormat, width: Int, height: Int,
                stride: Int, owner: AnyObject? = nil, release: (@Sendable () -> Void)? = nil) {
        precondition(stride >= width * format.bytesPerPixel, "stride is shorter than a row")
        self.format = format
        self.width = width
        self.height = height
        self.stride = stride
        storage = MatStorage(borrowing: base, byteCount: stride * height, owner: owner, release: release)
        offset = 0
    }

    init(format: PixelFormat, width: Int, height: Int, stride: Int, storage: MatStorage, offset: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.stride = stride
        self.storage = storage
        self.offset = offset
    }

    /// Bytes of pixel data in one row, without padding.
    public var rowBytes: Int { width * format.bytesPerPixel }

    /// Number of pixels.
    public var pixelCount: Int { width * height }

    /// True when rows follow each other with no padding.
    public var isContiguous: Bool { stride == rowBytes || height <= 1 }

    /// Bytes spanned from pixel (0, 0) to the end of the last row's pixels.
    public var spanBytes: Int { height == 0 ? 0 : stride * (height - 1) + rowBytes }

    /// True when both headers refer to the same pixel memory at the same place.
    public func sharesPixels(with other: Mat) -> Bool {
        storage === other.storage && offset == other.offset
    }

    /// True when no other header (a copy or a view) refers to this image's memory, so
    /// whoever holds it may overwrite the pixels without anyone else seeing it.
    public mutating func isOnlyReferenceToPixels() -> Bool {
        isKnownUniquelyReferenced(&storage)
    }

    /// True when the two images have the same format and size.
    public func hasSameShape(as other: Mat) -> Bool {
        format == other.format && width == other.width && height == other.height
    }
}
