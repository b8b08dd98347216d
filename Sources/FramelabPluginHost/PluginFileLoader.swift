import FramelabCore

/// Loads a plugin file into the host process, once, when an element of it is first used in
/// process — and only if its content is still what the discovery worker accepted (its
/// SHA-256), so a file replaced after the check is not loaded unchecked.
final class PluginFileLoader: @unchecked Sendable {
    let path: String
    let sha256: String
    private let lock = Lock()
    private var library: PluginLibrary?

    init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }

    /// The loaded element named `name`.
    func element(named name: String) throws -> PluginElement {
        let opened = try lock.withLock { () throws -> PluginLibrary in
            if let library { return library }
            guard SHA256.file(path) == sha256 else {
                throw FramelabError(.badInput, "\(path): the file changed after the plugin worker checked it; run the command again")
            }
            let loaded = try PluginLibrary(path: path)
            library = loaded
            return loaded
        }
        guard let element = opened.elements.first(where: { $0.info.name == name }) else {
            throw FramelabError(.badInput, "\(path) no longer has an element '\(name)'; run the command again")
        }
        return element
    }
}
