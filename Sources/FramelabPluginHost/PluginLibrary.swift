#if canImport(Glibc)
import Glibc
#endif
import CFramelabPlugin
import FramelabCore

/// One plugin file loaded into this process: the open library, its ABI version and its
/// validated elements.
///
/// The library stays open while this object (or any element made from it) lives, so the
/// description's static strings and the element functions remain valid. Loading runs the
/// file's constructors: the host does it only for a file the discovery worker accepted
/// (`PluginCatalog`); the worker does it to check one.
public final class PluginLibrary: @unchecked Sendable {
    public let path: String
    public let name: String
    public let abiVersion: String
    public let elements: [PluginElement]
    let library: DynamicLibrary

    /// Opens `path`, checks the ABI version and validates every element's description.
    /// Errors are one line naming the file (and the element, when one is at fault).
    public init(path given: String) throws {
        // dlopen searches the library path for a bare name; a plugin is always a file, so
        // open it by its absolute path (which is also what runs record).
        let path = Self.absolutePath(given)
        let label = OwnedCString("plugin \(path)")
        let library: DynamicLibrary
        let described: UnsafeRawPointer
        if PythonBridge.isPythonFile(path) {
            // Elements in Python: the bridge runs the file and describes it in the ABI's layout.
            (described, library) = try PluginCrashGuard.call(label.pointer, doing: "running its Python file") {
                try PythonBridge.describe(path)
            }
        } else {
            (described, library) = try Self.open(path, label: label)
        }
        let description = try PluginCrashGuard.call(label.pointer, doing: "describing its elements") {
            try PluginDescriptionLayout.read(described, path: path)
        }
        let abi = description.abiVersion
        self.path = path
        self.name = description.name ?? path
        self.abiVersion = abi
        self.library = library
        var elements: [PluginElement] = []
        for (i, d) in description.elements.enumerated() {
            let info = try PluginCrashGuard.call(label.pointer, doing: "describing its elements") {
                try PluginDescriptionReader.read(d, index: i, path: path, abiVersion: abi)
            }
            if elements.contains(where: { $0.info.name == info.name }) {
                throw FramelabError(.badInput, "\(path): element name '\(info.name)' is used twice")
            }
            elements.append(PluginElement(info: info, element: d.element, library: library))
        }
        self.elements = elements
    }
}

extension PluginLibrary {
    /// Opens the shared library at `path` and asks its entry function for its description.
    private static func open(_ path: String, label: OwnedCString) throws -> (UnsafeRawPointer, DynamicLibrary) {
        let library = try PluginCrashGuard.call(label.pointer, doing: "loading (its constructors ran)") {
            try DynamicLibrary(path: path)
        }
        guard let entryAddress = library.symbol(PluginABI.entrySymbol) else {
            throw FramelabError(.badInput,
                "\(path): not a Framelab plugin: it does not export '\(PluginABI.entrySymbol)'")
        }
        let entry = unsafeBitCast(entryAddress, to: fl_plugin_entry_fn.self)
        let answer = PluginCrashGuard.call(label.pointer, doing: "answering framelab_plugin_entry") {
            entry(PluginABI.major, PluginABI.minor)
        }
        guard let described = answer else {
            throw FramelabError(.badInput, "\(path): \(PluginABI.entrySymbol) returned NULL (the plugin refused host ABI \(PluginABI.versionText))")
        }
        return (UnsafeRawPointer(described), library)
    }

    static func absolutePath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path.contains("/") ? path : "./" + path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// One element of a plugin: its description, and the C functions behind it once its file
/// is loaded in this process. An element the catalog found was described by the discovery
/// worker; its file is loaded here only when an instance runs in process (`PluginFilter`,
/// `PluginDetector`), so listing, isolated runs and runs of built-ins load nothing.
public final class PluginElement: @unchecked Sendable {
    public let info: PluginElementInfo
    private let source: Source
    /// "element 'name' (path)" as a C string, for the crash guard.
    let crashLabel: OwnedCString

    private enum Source {
        case loaded(fl_plugin_element, DynamicLibrary)
        case deferred(PluginFileLoader)
    }

    /// The element's C description in this process (the host's copy, in the ABI 2 layout
    /// whatever the plugin's version: see `PluginDescriptionLayout`), and the open library
    /// that keeps its functions and strings valid.
    struct Loaded {
        let element: fl_plugin_element
        let library: DynamicLibrary
    }

    init(info: PluginElementInfo, element: fl_plugin_element, library: DynamicLibrary) {
        self.info = info
        source = .loaded(element, library)
        crashLabel = OwnedCString("element '\(info.name)' (\(info.path))")
    }

    init(info: PluginElementInfo, loader: PluginFileLoader) {
        self.info = info
        source = .deferred(loader)
        crashLabel = OwnedCString("element '\(info.name)' (\(info.path))")
    }

    /// Loads the element's file into this process if it is not yet (see `PluginFileLoader`).
    func loaded() throws -> Loaded {
        switch source {
        case .loaded(let element, let library): return Loaded(element: element, library: library)
        case .deferred(let loader): return try loader.element(named: info.name).loaded()
        }
    }

    /// "'name' (path)", the way every message names an element.
    public var label: String { "'\(info.name)' (\(info.path))" }
}
