/// `path` with every run of slashes made one (`a///b//` → `a/b/`). Foundation's NSString
/// path methods on Linux (pathExtension, lastPathComponent, deletingLastPathComponent…)
/// trap on some paths with runs of slashes (`a///////////b//`, found by fuzzing): a path
/// a user typed goes through this before them. The path names the same file.
public func collapsingSlashes(_ path: String) -> String {
    guard path.contains("//") else { return path }
    var out = ""
    out.reserveCapacity(path.utf8.count)
    var lastWasSlash = false
    for c in path {
        if c == "/" && lastWasSlash { continue }
        lastWasSlash = c == "/"
        out.append(c)
    }
    return out
}
