import Foundation

/// Where Debian's `opencv-data` puts the cascade XML files, and the ones Framelab uses by default.
public enum CascadeFiles {
    /// Folders searched in order; `FRAMELAB_OPENCV_DATA` (a folder holding haarcascades/
    /// and lbpcascades/) comes first when set.
    public static var dataDirectories: [String] {
        var dirs: [String] = []
        if let custom = ProcessInfo.processInfo.environment["FRAMELAB_OPENCV_DATA"] { dirs.append(custom) }
        return dirs + ["/usr/share/opencv4", "/usr/share/opencv", "/usr/local/share/opencv4"]
    }

    /// The path of a bundled cascade such as `haarcascades/haarcascade_eye.xml`; the first
    /// existing one, or the path under the first standard folder (whose load then fails
    /// with a message naming it).
    public static func path(_ relative: String) -> String {
        for dir in dataDirectories {
            let candidate = (dir as NSString).appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return ("/usr/share/opencv4" as NSString).appendingPathComponent(relative)
    }

    public static var haarFrontalFace: String { path("haarcascades/haarcascade_frontalface_default.xml") }
    public static var haarFrontalFaceAlt2: String { path("haarcascades/haarcascade_frontalface_alt2.xml") }
    public static var lbpFrontalFace: String { path("lbpcascades/lbpcascade_frontalface_improved.xml") }
    public static var eye: String { path("haarcascades/haarcascade_eye.xml") }
    public static var smile: String { path("haarcascades/haarcascade_smile.xml") }
}
