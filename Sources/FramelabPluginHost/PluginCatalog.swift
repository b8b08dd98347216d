#if canImport(Glibc)
import Glibc
#endif
import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabFilters

/// Every plugin Framelab found: where it looked, what was accepted, what was rejected and
/// why, and which names clash. Built-in and plugin filters then share one `FilterRegistry`.
///
/// Finding plugins loads none into this process: each file is checked by the discovery
/// worker (`PluginInspector`), or its verdict is taken from the cache by the file's SHA-256
/// (`PluginVerdictCache`). An element's file is loaded here only when an instance of it
/// runs in process (`PluginElement`).
public struct PluginCatalog: Sendable {
    /// The environment variable holding extra plugin files or folders, ':'-separated.
    public static let environmentVariable = "FRAMELAB_PLUGIN_PATH"

    /// Every accepted element, in discovery order.
    public private(set) var elements: [PluginElement] = []
    /// One line per file or element that was rejected, naming it and the reason.
    public private(set) var problems: [String] = []
    /// The files and folders discovery looked in, in order (`unknownNameHint`).
    public private(set) var searched: [String] = []
    /// Default test-run outcomes by element label ("" passed), when discovery asked for them.
    private var trials: [String: String] = [:]

    public init() {}

    public func element(named name: String) -> PluginElement? {
        elements.first { $0.info.name == name }
    }

    /// The outcome of `element`'s default test run: nil when it was not tried, "" when it
    /// passed, else the one-line failure.
    public func trialOutcome(_ element: PluginElement) -> String? {
        trials[element.label]
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

    /// Finds every plugin on `searchPath`: a file is checked, a folder contributes its
    /// `*.so` files and the `*.py` files that import `framelab_plugin` (sorted). A path that does not exist is a problem only when it was
    /// named explicitly. The same file reached twice is checked once. With `trials`, every
    /// element is also test-run with its defaults (`trialOutcome`).
    public static func discover(searchPath: [String], explicit: Set<String> = [], cache: PluginVerdictCache? = nil,
                                trials: Bool = false, inspector: PluginInspector = PluginInspector()) -> PluginCatalog {
        var catalog = PluginCatalog()
        catalog.searched = searchPath
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
                let real = PluginLibrary.absolutePath(file)
                guard seen.insert(real).inserted else { continue }
                catalog.add(real, cache: cache, trials: trials, inspector: inspector)
            }
        }
        return catalog
    }

    /// The verdict on the file at `path` (absolute): from the cache when it has one that
    /// covers what is asked, else from a discovery worker (and then cached).
    public static func verdict(for path: String, sha256: String, cache: PluginVerdictCache?, trials: Bool,
                               inspector: PluginInspector = PluginInspector()) -> PluginFileVerdict {
        if let cached = cache?.read(sha256: sha256, path: path),
           cached.rejection != nil || !trials || cached.triedAll {
            return cached
        }
        let fresh = inspector.inspect(path, trials: trials)
        cache?.write(fresh, sha256: sha256, path: path)
        return fresh
    }

    /// Checks the file at `path` afresh in a worker, test runs included, whatever the cache
    /// holds (`plugins check`), and refreshes the cache with the outcome.
    public static func check(_ path: String, cache: PluginVerdictCache?,
                             inspector: PluginInspector = PluginInspector()) -> (path: String, verdict: PluginFileVerdict) {
        let file = PluginLibrary.absolutePath(path)
        guard access(file, R_OK) == 0, !isDirectory(file), let sha = SHA256.file(file) else {
            let reason = isDirectory(file) ? "is a folder, not a plugin file" : "cannot be read: \(String(cString: strerror(errno)))"
            return (file, .rejected("\(path): \(reason)", cacheable: false))
        }
        let verdict = inspector.inspect(file, trials: true)
        cache?.write(verdict, sha256: sha, path: file)
        return (file, verdict)
    }

    private mutating func add(_ path: String, cache: PluginVerdictCache?, trials: Bool, inspector: PluginInspector) {
        guard let sha = SHA256.file(path) else {
            problems.append("\(path): cannot read the file: \(String(cString: strerror(errno)))")
            return
        }
        let verdict = Self.verdict(for: path, sha256: sha, cache: cache, trials: trials, inspector: inspector)
        if let rejection = verdict.rejection {
            problems.append(rejection)
            return
        }
        let loader = PluginFileLoader(path: path, sha256: sha)
        var infos: [PluginElementInfo] = []
        for record in verdict.elements {
            guard let info = record.info(path: path) else {
                problems.append("\(path): element '\(record.name)': the plugin worker's description of it is malformed")
                return
            }
            infos.append(info)
        }
        for info in infos {
            let element = PluginElement(info: info, loader: loader)
            elements.append(element)
            if let outcome = verdict.trials[info.name] { self.trials[element.label] = outcome }
        }
    }

    /// What an unknown element name's error adds: that plugins come from --plugin-path, that
    /// the working folder is not searched, and what was.
    public var unknownNameHint: String {
        let places = searched.isEmpty ? "no plugin folder" : searched.joined(separator: ", ")
        return "a plugin's? give its file or folder with --plugin-path: the working folder is not searched; searched: \(places)"
    }

    /// The built-ins plus every plugin filter. A name defined twice is kept out of the
    /// registry (or, for a built-in, blocked by `clashes`): using it is an error, never a
    /// silent choice. `clashes` maps each such name to a one-line message naming every origin.
    public func registry(isolation: IsolationOptions? = nil) -> (registry: FilterRegistry, clashes: [String: String]) {
        var registry = FilterRegistry.builtIns
        registry.unknownNameHint = unknownNameHint
        let clashes = nameClashes()
        for e in elements where e.info.kind == .filter && clashes[e.info.name] == nil {
            // Unique by the check above, so registering cannot clash.
            try? registry.register(Self.descriptor(e, isolation: isolation))
        }
        return (registry, clashes)
    }

    /// Names defined more than once among the built-in filters, the built-in detectors and
    /// every plugin element, whatever its kind, each with a one-line message naming every
    /// origin (`ElementNameClash`). Both registries use the same answer, so a plugin filter
    /// named like a built-in detector is refused as a filter too, not only as a detector.
    func nameClashes() -> [String: String] {
        let builtIns = FilterRegistry.builtIns.descriptors.map { ($0.name, $0.origin) }
            + DetectorRegistry.builtIns.descriptors.map { ($0.name, $0.origin) }
        return ElementNameClash.find(builtIns + elements.map { ($0.info.name, $0.info.path) })
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

    private static func soFiles(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".so") || PythonBridge.isPythonFile(name) { names.append(name) }
        }
        return names.sorted().map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }
            .filter { !PythonBridge.isPythonFile($0) || PythonBridge.declaresElements($0) }
    }
}
