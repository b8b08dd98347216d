import ArgumentParser
import FramelabDatasets
import FramelabFilters
import FramelabPipeline
import FramelabPluginHost
import FramelabSources
import Foundation

/// What TAB offers for an option's value in bash, zsh and fish (`framelab completions`).
/// Names come from the same catalogues the commands use — the filter and detector
/// registries with the plugins found, `FilterPath`, `DropPolicy`, the source schemes and
/// dataset formats — so a new element or scheme completes without touching this file.
/// The custom closures run in `framelab ---completion …` when TAB is pressed; the shell
/// keeps the candidates that start with what was typed.
enum ShellCompletion {
    /// Filter names, built-in and plugin (`--filter`).
    static let filters = CompletionKind.custom { words, _, _ in
        pluginCatalog(words).registry().registry.names
    }

    /// Detector names, built-in and plugin (`--detector`).
    static let detectors = CompletionKind.custom { words, _, _ in
        pluginCatalog(words).detectorRegistry().registry.names
    }

    /// Built-in filter implementations (`--path`).
    static let filterPaths = CompletionKind.list(FilterPath.allCases.map(\.rawValue))

    /// Queue policies (`--policy`).
    static let policies = CompletionKind.list(DropPolicy.allCases.map(\.rawValue))

    /// `--source` specs: the scheme names; after `image:`, `images:` or `video:` the paths
    /// of files and folders, after `camera:` the V4L2 devices, after `dataset:` the formats.
    static let sources = CompletionKind.custom { _, _, prefix in
        guard let colon = prefix.firstIndex(of: ":") else { return SourceRegistry.builtIns.names.map { $0 + ":" } }
        let scheme = String(prefix[..<colon]), rest = String(prefix[prefix.index(after: colon)...])
        switch scheme {
        case "image", "images", "video":
            return paths(completing: rest, foldersOnly: scheme == "images").map { scheme + ":" + $0 }
        case "camera":
            return paths(completing: rest.isEmpty ? "/dev/video" : rest).map { "camera:" + $0 }
        case "dataset":
            return datasetSpecs(rest).map { "dataset:" + $0 }
        default:
            return []
        }
    }

    /// Dataset specs FORMAT:PATH (`--dataset`, `dataset info|show`).
    static let datasets = CompletionKind.custom { _, _, prefix in datasetSpecs(prefix) }

    /// HDF5 recordings (`--out`, the files `report`, `recover`, `export` and `merge` read).
    static let recordings = CompletionKind.file(extensions: ["h5"])

    /// Plugin files and folders (`--plugin-path`).
    static let pluginFiles = CompletionKind.file(extensions: ["so", "py"])

    private static func datasetSpecs(_ prefix: String) -> [String] {
        let formats = DatasetFormat.allCases.map(\.rawValue)
        guard let colon = prefix.firstIndex(of: ":") else { return formats.map { $0 + ":" } }
        let format = String(prefix[..<colon])
        guard formats.contains(format) else { return [] }
        return paths(completing: String(prefix[prefix.index(after: colon)...])).map { format + ":" + $0 }
    }

    /// The plugins a command line would see: its `--plugin-path` values, then the usual
    /// search path, verdicts taken from the cache (completion must be quick and quiet).
    private static func pluginCatalog(_ words: [String]) -> PluginCatalog {
        var explicit: [String] = []
        for (i, word) in words.enumerated() {
            if word == "--plugin-path", i + 1 < words.count { explicit.append(words[i + 1]) }
            if word.hasPrefix("--plugin-path=") { explicit.append(String(word.dropFirst("--plugin-path=".count))) }
        }
        return PluginCatalog.discover(searchPath: PluginCatalog.searchPath(explicit: explicit),
                                      cache: PluginVerdictCache.standard())
    }

    /// Files and folders (folders with a trailing '/') whose path starts with `partial`.
    private static func paths(completing partial: String, foldersOnly: Bool = false) -> [String] {
        let slash = partial.lastIndex(of: "/")
        let folder = slash.map { String(partial[...$0]) } ?? ""
        let stem = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
        let expanded = folder.isEmpty ? "." : (folder as NSString).expandingTildeInPath
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: expanded) else { return [] }
        return names.filter { $0.hasPrefix(stem) && ($0.hasPrefix(".") == stem.hasPrefix(".")) }.sorted().compactMap { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: expanded + "/" + name, isDirectory: &isFolder)
            if foldersOnly && !isFolder.boolValue { return nil }
            return folder + name + (isFolder.boolValue ? "/" : "")
        }
    }
}
