import CFramelabCV
import FramelabCore

/// An OpenCV highgui window showing images (needs a display: X11 or Xvfb).
public struct PreviewDisplay: Sendable {
    public let title: String

    public init(title: String) { self.title = title }

    /// Shows `image` (Gray8, BGR8 or BGRA8), handles window events for `waitMilliseconds`,
    /// and returns the key pressed meanwhile, if any.
    public func show(_ image: Mat, waitMilliseconds: Int = 1) throws -> Int32? {
        var message = ""
        let key = image.withFLImage { img in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { err in
                err.initialize(repeating: 0)
                let key = fl_preview_show(title, img, Int32(waitMilliseconds), err.baseAddress, err.count)
                if key <= -2 { message = String(cString: err.baseAddress!) }
                return key
            }
        }
        if key == -3 { throw FramelabError(.unsupported, "preview '\(title)': \(image.format) images cannot be shown") }
        if key <= -2 { throw FramelabError(.io, "preview '\(title)': \(message)") }
        return key >= 0 ? key : nil
    }

    public func close() { fl_preview_close(title) }
}
