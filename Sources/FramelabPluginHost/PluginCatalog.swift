#if canImport(Glibc)
import Glibc
#endif
import FramelabCore
import FramelabElements
import FramelabFilters

/// Every plugin Framelab found: where it looked, what loaded, what was rejected and why,
/// and which names clash. Built-in and plugin filters then share one `FilterRegistry`.
public struct PluginCatalog: Sendable {
    /// The environment variable holding extra plugin files or folders, ':'-separated.
    public static let environmentVariable = "FRAMELAB_PLUGIN_PATH"

    public private(set) var libraries: [PluginLibrary] = []
    /// One line per file or element that was rejected, naming it and the reason.
    public private(set) var problems: [String] = []

    public init() {}

    /// Every element of every loaded library, in discovery order.
    public var elements: [PluginElement] { libraries.flatMap(\.elements) }

    public func element(named name: String) -> PluginElement? {
        elements.first { $0.info.name == name }
    }

    /// Where plugins are looked for, in order: `explicit` paths (--plugin-path), then
    /// $FRAMELAB_PLUGIN_PATH, then the package's own built plugins (.build/plugins).
    public static func searchPath(explicit: [String], environment: String? = nil,
                                  includeBuilt: Bool = true) -> [String] {
        let env = environment ?? getenv(environmentVariable).map { String(cString: $0) } ?? ""
        var paths = explicit.flatMap { $0.split(separator: ":").map(String.init) }
        paths += env.split(separator: ":").map(String.init)
        if includeBuilt, let built = builtPluginsFolder() { paths.append(built) }
        return paths
    }

    /// `.build/plugins` of the checkout the running executable was built in, if any.
    public static func builtPluginsFolder() -> String? {
        guard let exe = PluginSDK.executablePath() else { return nil }
        var parts = exe.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while let last = parts.last {
            if last == ".build" {
                let folder = (parts + ["plugins"]).joined(separator: "/")
                return isDirectory(folder) ? folder : nil
            }
            parts.removeLast()
        }
        return nil
    }

    /// Loads every plugin on `searchPath`: a file is loaded, a folder contributes its
    /// `*.so` files (sorted). A path that does not exist is a problem only when it was
    /// named explicitly. The same file reached twice is loaded once.
    public static func discover(searchPath: [String], explicit: Set<String> = []) -> PluginCatalog {
        var catalog = PluginCatalog()
        var seen = Set<String>()
        for entry in searchPath {
            let files: [String]
            if isDirectory(entry) {
                files = soFiles(in: entry)
            } else if access(entry, F_OK) == 0 {
                files = [entry]
            } else {
                if explicit.contains(entry) { catalog.problems.append("\(entry): no such plugin file or folder") }
                continue
            }
            for file in files {
                let real = realPath(file)
                guard seen.insert(real).inserted else { continue }
                catalog.load(file)
            }
        }
        return catalog
    }

    /// Loads one file; a failure becomes a problem line.
    public mutating func load(_ path: String) {
        do {
            libraries.append(try PluginLibrary(path: path))
        } catch {
            problems.append((error as? FramelabError)?.message ?? "\(path): \(error)")
        }
    }

    /// The built-ins plus every plugin filter. A name defined twice is kept out of the
    /// registry (or, for a built-in, blocked by `clashes`): using it is an error, never a
    /// silent choice. `clashes` maps each such name to a one-line message naming every origin.
    public func registry(isolation: IsolationOptions? = nil) -> (registry: FilterRegistry, clashes: [String: String]) {
        var registry = FilterRegistry.builtIns
        let clashes = nameClashes(builtIns: registry.descriptors.map { ($0.name, $0.origin) })
        for e in elements where e.info.kind == .filter && clashes[e.info.name] == nil {
            // Unique by the check above, so registering cannot clash.
            try? registry.register(Self.descriptor(e, isolation: isolation))
        }
        return (registry, clashes)
    }

    /// Names defined more than once among `builtIns` (name, origin) and every plugin element,
    /// whatever its kind, each with a one-line message naming every origin (`ElementNameClash`).
    func nameClashes(builtIns: [(name: String, origin: String)]) -> [String: String] {
        ElementNameClash.find(builtIns + elements.map { ($0.info.name, $0.info.path) })
    }

    /// A filter element as a registry entry; instances run in-process or isolated.
    public static func descriptor(_ element: PluginElement, isolation: IsolationOptions?) -> FilterDescriptor {
        let info = element.info
        return FilterDescriptor(name: info.name, summary: info.summary, parameters: info.parameters,
                                formats: info.formats, origin: info.path, version: info.version) { values in
            if let isolation {
                return try IsolatedPluginFilter(element: element, values: values, options: isolation)
            }
            return try PluginFilter(element: element, values: values)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR
    }

    private static func realPath(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    private static func soFiles(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".so") { names.append(name) }
        }
        return names.sorted().map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }
    }
}
