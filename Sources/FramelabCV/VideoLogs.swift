#if canImport(Glibc)
import Glibc
#endif

/// FFmpeg's console output under OpenCV's video I/O (`VideoReader`, `VideoWriter`).
public enum VideoLogs {
    /// Silences FFmpeg's console chatter — Framelab reports every failure in one line of
    /// its own — unless OPENCV_FFMPEG_LOGLEVEL is already set. This sets an environment
    /// variable, a process-wide effect, so programs call it first thing at start-up (OpenCV
    /// reads it once, when the first video opens); the libraries never do.
    public static func quiet() {
        setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0)  // AV_LOG_QUIET
    }
}
