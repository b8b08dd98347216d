import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// The errors a camera user meets, as one-line messages that say how to fix them.
public enum CameraErrors {
    /// A failed V4L2 call, explained.
    /// `frames`: how many frames were delivered before it failed, when streaming.
    public static func explain(_ error: V4L2CallError, frames: Int? = nil) -> FramelabError {
        let device = "camera '\(error.path)'"
        switch error.code {
        case EACCES, EPERM:
            return FramelabError(.io, "\(device): permission denied (\(error.errnoName)) — add your user to the "
                + "'video' group (sudo usermod -aG video $USER, then log out and in) or check `ls -l \(error.path)`")
        case ENOENT:
            return FramelabError(.io, "\(device): no such device — `framelab devices` lists the cameras present")
        case EBUSY:
            return FramelabError(.io, "\(device): device busy (\(error.call) answered EBUSY) — another program is "
                + "using it; close it (`fuser \(error.path)` names it) and try again")
        case ENODEV, ENXIO:
            let when = frames.map { " after \($0) frames" } ?? ""
            return FramelabError(.io, "\(device): disconnected\(when) (\(error.call) answered \(error.errnoName)) — "
                + "plug the camera back in; `framelab devices` shows when it is back")
        default:
            return FramelabError(.io, "\(device): \(error.call) failed: \(String(cString: strerror(error.code))) "
                + "(\(error.errnoName))")
        }
    }

    static func notCapture(_ path: String, _ caps: V4L2Capabilities) -> FramelabError {
        FramelabError(.unsupported, "camera '\(path)': not a video capture device (\(caps.card), driver "
            + "\(caps.driver): \(caps.kindDescription)) — webcams often add a metadata node next to the "
            + "capture node; `framelab devices` lists the capture devices")
    }

    static func noStreaming(_ path: String) -> FramelabError {
        FramelabError(.unsupported, "camera '\(path)': the driver offers no memory-mapped streaming, "
            + "which Framelab needs")
    }

    static func noMatchingFormat(_ path: String, wanted: String, offers: [FormatOffer]) -> FramelabError {
        FramelabError(.unsupported, "camera '\(path)': no format matches \(wanted); the device offers: "
            + (offers.isEmpty ? "nothing" : offers.summary))
    }

    static func timedOut(_ path: String, waitedMilliseconds: Int, attempts: Int, frames: Int) -> FramelabError {
        FramelabError(.io, "camera '\(path)': no frame within \(waitedMilliseconds) ms, \(attempts) times in a row "
            + "(after \(frames) frames) — the driver stopped delivering; check the cable and USB bandwidth "
            + "(format=mjpeg or a smaller size needs less), or raise timeout-ms")
    }
}
