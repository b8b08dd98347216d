import CFramelabCV
import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// Sequential video decoding through OpenCV's videoio.
public final class VideoReader {
    public let path: String
    /// Frames per second the container declares (0 when it does not).
    public let fps: Double
    /// Frame count the container declares (nil when unknown; may be wrong for truncated files).
    public let declaredFrameCount: Int?
    public let width: Int
    public let height: Int
    private let handle: OpaquePointer

    public init(path: String) throws {
        guard access(path, F_OK) == 0 else { throw FramelabError(.io, "video '\(path)': no such file") }
        guard access(path, R_OK) == 0 else { throw FramelabError(.io, "video '\(path)': permission denied") }
        handle = try cvOpen("video '\(path)'") { fl_video_open(path, $0, $1) }
        let info = fl_video_get_info(handle)
        self.path = path
        fps = info.fps.isFinite ? info.fps : 0
        declaredFrameCount = info.frame_count >= 0 ? Int(info.frame_count) : nil
        width = Int(info.width)
        height = Int(info.height)
    }

    deinit { fl_video_close(handle) }

    /// The next frame and its presentation time in milliseconds, or nil at the end.
    public func next(as format: PixelFormat = .bgra8) throws -> (image: Mat, ptsMs: Double)? {
        var out: OpaquePointer?
        var pts = 0.0
        let status = try cvCall("video '\(path)'", kind: .corrupt) {
            fl_video_read(handle, format.rawValue, &out, &pts, $0, $1)
        }
        if status == Int32(FL_CV_END) { return nil }
        return (Mat(adopting: out!), pts)
    }
}
