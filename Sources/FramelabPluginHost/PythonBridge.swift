#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// Elements written in Python: a `.py` file that imports `framelab_plugin` is a plugin file
/// like a `.so`. It is described through the Python bridge, `libframelab-python.so`
/// (Sources/PythonBridge, built by scripts/build-plugins.sh), which runs the file in an
/// embedded CPython and answers with an ordinary ABI 2 description — so checking, test runs,
/// in-process and isolated runs take the same paths as a shared library's elements.
enum PythonBridge {
    /// The module an element file imports; a `.py` in a plugin folder is an element file
    /// only when its text names it (other Python files in the folder are left alone).
    static let moduleName = "framelab_plugin"
    static let libraryName = "libframelab-python.so"

    static func isPythonFile(_ path: String) -> Bool { path.hasSuffix(".py") }

    /// Whether the `.py` file at `path` declares Framelab elements (mentions `framelab_plugin`
    /// in its first 64 KB).
    static func declaresElements(_ path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let n = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[0..<n], as: UTF8.self).contains(moduleName)
    }

    /// The bridge: $FRAMELAB_PYTHON_BRIDGE, else `lib/framelab/` of an install prefix, else
    /// `.build/python/` of the build the running executable is in.
    static func libraryPath() -> String? {
        if let path = getenv("FRAMELAB_PYTHON_BRIDGE").map({ String(cString: $0) }), !path.isEmpty { return path }
        guard let exe = PluginSDK.executablePath() else { return nil }
        var parts = exe.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        var candidates = [(parts.dropLast() + ["lib", "framelab", libraryName]).joined(separator: "/")]
        while !parts.isEmpty {
            if parts.last == ".build" { candidates.append(parts.joined(separator: "/") + "/python/" + libraryName) }
            parts.removeLast()
        }
        return candidates.first { access($0, R_OK) == 0 }
    }

    /// The venv whose site-packages the embedded Python searches first (numpy comes from
    /// there): $FRAMELAB_PYTHON_VENV, else $VIRTUAL_ENV (an activated venv), else `.venv` of
    /// the checkout the running executable was built in; "" for none.
    static func venv() -> String {
        for name in ["FRAMELAB_PYTHON_VENV", "VIRTUAL_ENV"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        guard let exe = PluginSDK.executablePath() else { return "" }
        var parts = exe.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while let last = parts.last {
            parts.removeLast()
            if last == ".build" {
                let candidate = (parts + [".venv"]).joined(separator: "/")
                return access(candidate, F_OK) == 0 ? candidate : ""
            }
        }
        return ""
    }

    private typealias DescribeFunction = @convention(c) (
        UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int) -> UnsafeRawPointer?

    private static let lock = Lock()
    nonisolated(unsafe) private static var opened: DynamicLibrary?

    /// The bridge, opened once per process.
    private static func library() throws -> DynamicLibrary {
        try lock.withLock {
            if let opened { return opened }
            guard let path = libraryPath() else {
                throw FramelabError(.io, "the Python bridge (\(libraryName)) was not found: run scripts/build-plugins.sh (it needs Debian's python3-dev), or set FRAMELAB_PYTHON_BRIDGE")
            }
            let library = try DynamicLibrary(path: path)
            opened = library
            return library
        }
    }

    /// Runs the element file at `path` through the bridge: its description (in the plugin
    /// ABI's layout, alive for the process) and the bridge library behind its functions.
    /// Errors are one line naming the file.
    static func describe(_ path: String) throws -> (description: UnsafeRawPointer, library: DynamicLibrary) {
        let bridge: DynamicLibrary
        do {
            bridge = try library()
        } catch let error as FramelabError {
            throw FramelabError(error.kind, "\(path): \(error.message)")
        }
        guard let address = bridge.symbol("framelab_python_plugin") else {
            throw FramelabError(.io, "\(path): \(bridge.path) does not export framelab_python_plugin: rebuild it with scripts/build-plugins.sh")
        }
        let describe = unsafeBitCast(address, to: DescribeFunction.self)
        var message = [CChar](repeating: 0, count: 1024)
        let answer = describe(path, venv(), &message, message.count)
        guard let answer else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw FramelabError(.badInput, "\(path): \(reason.isEmpty ? "the Python bridge refused it without a reason" : reason)")
        }
        return (answer, bridge)
    }

    /// The bridge's and its module's size and modification time, for the verdict cache's key
    /// (a rebuilt bridge may describe a file differently); "" without a bridge.
    static let build: String = {
        guard let library = libraryPath() else { return "" }
        let module = library.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/\(moduleName).py"
        return [library, module].map { file -> String in
            var s = stat()
            guard stat(file, &s) == 0 else { return "-" }
            return String(s.st_size, radix: 16) + "." + String(s.st_mtim.tv_sec, radix: 16) + String(s.st_mtim.tv_nsec, radix: 16)
        }.joined(separator: ".")
    }()
}
