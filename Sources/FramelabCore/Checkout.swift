import Foundation

/// The source checkout the running executable was built in, for files that come with it
/// (the bundled sample, the fetched models) when Framelab runs from another folder.
public enum Checkout {
    /// The checkout's root, when the executable lives in one. `.build/release` is a symlink
    /// to `.build/<triple>/release`, so it is the parent of the `.build` folder on the
    /// executable's resolved path, else `<exe dir>/../..` (an executable copied out of
    /// `.build`), whichever holds a `Datasets` folder.
    public static let root: String? = {
        guard let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? Bundle.main.executablePath else { return nil }
        var dir = URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [dir.deletingLastPathComponent().deletingLastPathComponent()]
        while dir.path != "/" {
            if dir.lastPathComponent == ".build" { candidates.insert(dir.deletingLastPathComponent(), at: 0); break }
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { isDirectory($0.appendingPathComponent("Datasets").path) }?.path
    }()

    /// A default path such as `Datasets/sample/faces.csv`: as given when it exists from the
    /// working directory (or is absolute), else the checkout's copy when that exists, else as
    /// given (so the error names what was looked for).
    public static func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), !FileManager.default.fileExists(atPath: path), let root else { return path }
        let inCheckout = (root as NSString).appendingPathComponent(path)
        return FileManager.default.fileExists(atPath: inCheckout) ? inCheckout : path
    }

    /// `FORMAT:PATH` with its path resolved as `resolve` does.
    public static func resolveDataset(_ spec: String) -> String {
        guard let colon = spec.firstIndex(of: ":") else { return spec }
        return String(spec[...colon]) + resolve(String(spec[spec.index(after: colon)...]))
    }

    /// True when `path` exists and is a folder (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }
}
