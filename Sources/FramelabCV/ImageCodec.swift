import CFramelabCV
import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// Image file decoding and encoding through OpenCV's imgcodecs.
public enum ImageCodec {
    /// Extensions Framelab treats as image files (what OpenCV 4.6 on Debian decodes).
    public static let fileExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "bmp", "dib", "tif", "tiff", "webp", "pbm", "pgm", "ppm", "pnm",
        "pxm", "sr", "ras", "jp2", "exr", "hdr", "pic",
    ]

    /// The most pixels one decoded image may have: 2^28 (16384×16384, 1 GiB as BGRA).
    /// Checked against the size a PNG, JPEG, BMP, WebP or PNM header declares before
    /// decoding; OpenCV's own `OPENCV_IO_MAX_IMAGE_PIXELS` (2^30 unless set in the
    /// environment before start-up) is the bound for the formats whose header is not read.
    public static let maxDecodedPixels = 1 << 28

    /// Throws when a header declares more than `maxDecodedPixels` pixels.
    static func checkDeclaredSize(_ size: (width: Int, height: Int)?, _ context: String) throws {
        guard let size else { return }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard overflow || pixels > maxDecodedPixels else { return }
        throw FramelabError(.unsupported, "\(context): its header declares \(size.width)x\(size.height) pixels, "
                            + "more than the \(maxDecodedPixels) (2^28) Framelab decodes")
    }

    /// Throws for a JPEG cut short: libjpeg would decode it with grey rows and only a
    /// warning, and the frame would pass for a normal one.
    static func checkComplete(_ end: ImageHeader.JPEGEnd, _ context: String) throws {
        guard case .truncated(let at) = end else { return }
        throw FramelabError(.corrupt, "\(context): truncated JPEG: the data ends after \(at) bytes, "
                            + "before its end-of-image marker")
    }

    /// Decodes the image at `path` into `format`. Errors name the path and say why.
    public static func read(_ path: String, as format: PixelFormat = .bgra8) throws -> Mat {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // ENOENT, ELOOP (a symlink loop), ENOTDIR, EACCES on a folder on the way: as the system says it.
            throw FramelabError(.io, "image '\(path)': " + (errno == ENOENT ? "no such file" : String(cString: strerror(errno))))
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            throw FramelabError(.badInput, "image '\(path)': is a folder, not an image file (images:DIR reads a folder)")
        }
        guard access(path, R_OK) == 0 else {
            throw FramelabError(.io, "image '\(path)': permission denied")
        }
        try checkDeclaredSize(ImageHeader.withFileReader(path) { ImageHeader.size($0) } ?? nil, "image '\(path)'")
        try checkComplete(ImageHeader.withFileReader(path) { ImageHeader.jpegEnd($0) } ?? .unknown, "image '\(path)'")
        var out: OpaquePointer?
        _ = try LibraryMessages.capturing("image '\(path)'") {
            try cvCall("image '\(path)'", kind: .corrupt) { fl_cv_decode_file(path, format.rawValue, &out, $0, $1) }
        }
        return Mat(adopting: out!)
    }

    /// Decodes an encoded image (PNG, JPEG, …) held in memory; `name` labels errors.
    public static func decode(_ bytes: UnsafeRawBufferPointer, as format: PixelFormat = .bgra8,
                              name: String = "image data") throws -> Mat {
        try checkDeclaredSize(ImageHeader.size(ImageHeader.reader(bytes)), name)
        try checkComplete(ImageHeader.jpegEnd(ImageHeader.reader(bytes)), name)
        var out: OpaquePointer?
        _ = try LibraryMessages.capturing(name) {
            try cvCall(name, kind: .corrupt) {
                fl_cv_decode_bytes(bytes.baseAddress, bytes.count, format.rawValue, &out, $0, $1)
            }
        }
        return Mat(adopting: out!)
    }

    /// Encodes `image` to `path`; the extension picks the codec.
    public static func write(_ image: Mat, to path: String) throws {
        try image.withFLImage { img in
            try cvCall("cannot write image '\(path)'", kind: .io) { fl_cv_encode_file(path, img, $0, $1) }
        }
    }
}
