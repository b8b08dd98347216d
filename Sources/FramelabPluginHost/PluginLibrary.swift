#if canImport(Glibc)
import Glibc
#endif
import CFramelabPlugin
import FramelabCore

/// One loaded plugin file: the open library, its ABI version and its validated elements.
///
/// The library stays open while this object (or any element made from it) lives, so the
/// description's static strings and the element functions remain valid.
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
        let library = try DynamicLibrary(path: path)
        guard let entryAddress = library.symbol(PluginABI.entrySymbol) else {
            throw FramelabError(.badInput,
                "\(path): not a Framelab plugin: it does not export '\(PluginABI.entrySymbol)'")
        }
        let entry = unsafeBitCast(entryAddress, to: fl_plugin_entry_fn.self)
        guard let described = entry(PluginABI.major, PluginABI.minor) else {
            throw FramelabError(.badInput, "\(path): \(PluginABI.entrySymbol) returned NULL (the plugin refused host ABI \(PluginABI.versionText))")
        }
        let plugin = described.pointee
        let abi = "\(plugin.abi_major).\(plugin.abi_minor)"
        guard plugin.abi_major == PluginABI.major else {
            throw FramelabError(.badInput,
                "\(path): built for plugin ABI \(abi), but this Framelab speaks ABI \(PluginABI.versionText) (major versions must match; rebuild the plugin against the current framelab_plugin.h)")
        }
        guard plugin.abi_minor <= PluginABI.minor else {
            throw FramelabError(.badInput,
                "\(path): built for plugin ABI \(abi), newer than this Framelab's \(PluginABI.versionText); update Framelab")
        }
        guard plugin.element_count > 0, let cElements = plugin.elements else {
            throw FramelabError(.badInput, "\(path): the plugin describes no elements")
        }
        self.path = path
        self.name = plugin.name.map { String(cString: $0) } ?? path
        self.abiVersion = abi
        self.library = library
        var elements: [PluginElement] = []
        for i in 0..<Int(plugin.element_count) {
            let info = try PluginDescriptionReader.read(cElements[i], index: i, path: path, abiVersion: abi)
            if elements.contains(where: { $0.info.name == info.name }) {
                throw FramelabError(.badInput, "\(path): element name '\(info.name)' is used twice")
            }
            elements.append(PluginElement(info: info, element: cElements + i, library: library))
        }
        self.elements = elements
    }
}

extension PluginLibrary {
    static func absolutePath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path.contains("/") ? path : "./" + path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// One element of a loaded plugin: its description and the C functions behind it.
public final class PluginElement: @unchecked Sendable {
    public let info: PluginElementInfo
    let element: UnsafePointer<fl_plugin_element>
    /// Keeps the library mapped while the element is in use.
    let library: DynamicLibrary

    init(info: PluginElementInfo, element: UnsafePointer<fl_plugin_element>, library: DynamicLibrary) {
        self.info = info
        self.element = element
        self.library = library
    }

    /// "'name' (path)", the way every message names an element.
    public var label: String { "'\(info.name)' (\(info.path))" }
}
