import Foundation

/// How a predicted image's name finds its dataset image (docs/predictions.md, "Matching
/// names"). Names are compared as keys: the name without a leading `./` or `/` and without
/// the extension of its last component (`0--Parade/0_Parade_1.jpg` → `0--Parade/0_Parade_1`).
///
/// 1. A key equal to the key of an image's dataset name (as its annotation file writes it:
///    WIDER `0--Parade/x.jpg`, FDDB `2002/08/11/big/img_591`, CSV `images/a.png`) is that image.
/// 2. Otherwise whole trailing path components decide, when they single out one image:
///    the key is the end of an image's name or file path (`a` finds `images/a.png`), or an
///    image's name is the end of the key (`originalPics/2002/…/img_591` finds `2002/…/img_591`).
/// A key that fits several images is ambiguous and fits none.
public struct ImageKeyIndex: Sendable {
    public enum Lookup: Equatable, Sendable {
        case found(Int)
        case unknown
        case ambiguous
    }

    /// Key → image position; -1 where two images share the key.
    private var exact: [String: Int] = [:]
    private var endings: [String: Int] = [:]

    public init(_ images: [AnnotatedImage]) {
        for (i, image) in images.enumerated() {
            let name = Self.key(image.name)
            exact[name] = exact[name] == nil ? i : -1
            var seen: Set<String> = []
            for key in [name, Self.key(Self.absolute(image.path))] {
                for ending in Self.properEndings(key) where seen.insert(ending).inserted {
                    endings[ending] = endings[ending] == nil ? i : -1
                }
            }
        }
    }

    public func lookup(_ name: String) -> Lookup {
        let key = Self.key(name)
        if let i = exact[key] { return i < 0 ? .ambiguous : .found(i) }
        if let i = endings[key] { return i < 0 ? .ambiguous : .found(i) }
        var found: Set<Int> = []
        for ending in Self.properEndings(key) {
            if let i = exact[ending] { found.insert(i) }
        }
        if found.count == 1, let i = found.first, i >= 0 { return .found(i) }
        return found.isEmpty ? .unknown : .ambiguous
    }

    /// `name` without a leading `./` or `/` and without its last component's extension.
    public static func key(_ name: String) -> String {
        var parts = name.split(separator: "/").filter { $0 != "." }.map(String.init)
        if let last = parts.last {
            let stem = (last as NSString).deletingPathExtension
            parts[parts.count - 1] = stem.isEmpty ? last : stem
        }
        return parts.joined(separator: "/")
    }

    /// `b/c` and `c` for `a/b/c`: the endings made of whole components, shorter than the key.
    private static func properEndings(_ key: String) -> [String] {
        let parts = key.split(separator: "/")
        return parts.indices.dropFirst().map { parts[$0...].joined(separator: "/") }
    }

    private static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (full as NSString).standardizingPath
    }
}
