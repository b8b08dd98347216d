import CFramelabCV
import FramelabCore

/// Writes frames to a video file through OpenCV's VideoWriter; the extension picks
/// the container (.mkv and .avi get Motion JPEG, .mp4 gets MPEG-4 Part 2).
public final class VideoWriter {
    public let path: String
    public let width: Int
    public let height: Int
    public private(set) var framesWritten = 0
    private var handle: OpaquePointer?

    public init(path: String, fps: Double, width: Int, height: Int) throws {
        self.path = path
        self.width = width
        self.height = height
        handle = try cvOpen("cannot write video '\(path)'") {
            fl_video_writer_open(path, fps, Int32(width), Int32(height), $0, $1)
        }
    }

    /// Appends one frame (any format; converted to BGR for the codec).
    public func write(_ image: Mat) throws {
        guard let handle else { throw FramelabError(.io, "video '\(path)': writer is closed") }
        try image.withFLImage { img in
            try cvCall("video '\(path)'", kind: .io) { fl_video_writer_write(handle, img, $0, $1) }
        }
        framesWritten += 1
    }

    /// Finishes the file (writes the container's index). Safe to call twice.
    public func close() {
        if let handle { fl_video_writer_close(handle) }
        handle = nil
    }

    deinit { close() }
}
