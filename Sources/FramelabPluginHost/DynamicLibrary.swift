#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// A shared library opened with dlopen; closed when the last reference goes away.
///
/// RTLD_LOCAL keeps each plugin's symbols to itself, so two plugins may define the same
/// helper names; RTLD_NOW makes a missing dependency fail here, with dlerror's words,
/// rather than at the first call. RTLD_NODELETE keeps the code mapped after dlclose: the
/// Swift runtime cannot forget a Swift plugin's type metadata, and images may still point
/// at a plugin's static buffers.
final class DynamicLibrary: @unchecked Sendable {
    let path: String
    private let handle: UnsafeMutableRawPointer

    init(path: String) throws {
        self.path = path
        if let problem = ELFFileCheck.problem(path) {
            throw FramelabError(.badInput, "\(path): cannot load as a shared library: \(problem)")
        }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw FramelabError(.badInput, "\(path): cannot load as a shared library: \(Self.lastError(path))")
        }
        self.handle = handle
    }

    /// The address of an exported symbol, or nil.
    func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }

    deinit { dlclose(handle) }

    private static func lastError(_ path: String) -> String {
        let pathPrefix = path + ": "
        guard let text = dlerror() else { return "unknown dlopen error" }
        // dlerror repeats the path at the front; keep only the reason after it.
        let message = String(cString: text)
        if message.hasPrefix(pathPrefix) { return String(message.dropFirst(pathPrefix.count)) }
        return message
    }
}
