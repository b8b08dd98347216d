import Foundation
import FramelabRecording

/// Dataset image paths as runs record them: relative to the run's `dataset_root`
/// attribute (the deepest folder holding every image), so a recording moves with its dataset.
public enum DatasetPaths {
    public static let rootAttribute = "dataset_root"

    /// The absolute form of `path` (relative paths are taken from the current directory).
    public static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (full as NSString).standardizingPath
    }

    /// `path` (relative to `root` unless absolute) as an absolute path.
    public static func absolute(_ path: String, root: String) -> String {
        path.hasPrefix("/") || root.isEmpty ? path : (root.hasSuffix("/") ? root + path : root + "/" + path)
    }

    /// The deepest folder holding every one of `absolutePaths`.
    public static func root(_ absolutePaths: [String]) -> String {
        guard let first = absolutePaths.first else { return "" }
        var common = Array(first.split(separator: "/", omittingEmptySubsequences: false).dropLast())
        for path in absolutePaths.dropFirst() {
            let folders = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            var n = 0
            while n < common.count && n < folders.count && common[n] == folders[folders.startIndex + n] { n += 1 }
            common = Array(common.prefix(n))
        }
        let root = common.joined(separator: "/")
        return root.isEmpty ? "/" : root
    }

    /// `absolutePath` relative to `root`.
    public static func relative(_ absolutePath: String, root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return absolutePath.hasPrefix(prefix) ? String(absolutePath.dropFirst(prefix.count)) : absolutePath
    }

    /// The `images` rows and `dataset_root` of images at `paths`, frame i being `frames[i]`.
    public static func rows(_ paths: [String], frames: [Int]) -> (root: String, rows: [ImageRow]) {
        let absolute = paths.map { Self.absolute($0) }
        let root = Self.root(absolute)
        return (root, zip(frames, absolute).map { ImageRow(frame: Int64($0), path: relative($1, root: root)) })
    }

    /// The run's `dataset_root` attribute ("" when absent).
    static func root(of run: RunData) -> String {
        if case .string(let s)? = run.attributes[rootAttribute] { return s }
        return ""
    }
}
