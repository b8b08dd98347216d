#if canImport(Glibc)
import Glibc
#endif

/// Where the plugin header is installed, for `framelab plugins sdk`.
public enum PluginSDK {
    public static let headerName = "framelab_plugin.h"

    /// The folder holding framelab_plugin.h (for `cc -I`), looked for relative to the
    /// running executable: an install prefix (`bin/../include/framelab`), the build's
    /// copy (`.build/sdk/include`), then the source tree (`Sources/CFramelabPlugin/include`).
    public static func includeFolder() -> String? {
        guard let exe = executablePath() else { return nil }
        var parts = exe.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        var candidates = [(parts.dropLast() + ["include", "framelab"]).joined(separator: "/")]
        while !parts.isEmpty {
            let dir = parts.joined(separator: "/")
            if parts.last == ".build" { candidates.append(dir + "/sdk/include") }
            candidates.append(dir + "/Sources/CFramelabPlugin/include")
            parts.removeLast()
        }
        return candidates.first { access($0 + "/" + headerName, R_OK) == 0 }
    }

    /// The Swift plugin kit's sources (`Sources/FramelabPluginKit`) and the C target they
    /// import (`Sources/CFramelabPlugin`), in the checkout the running executable was built
    /// in: `plugins new --lang swift` copies both into the project it writes.
    public static func swiftKitFolders() -> (kit: String, abi: String)? {
        guard let exe = executablePath() else { return nil }
        var parts = exe.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        while !parts.isEmpty {
            let sources = parts.joined(separator: "/") + "/Sources"
            if access(sources + "/FramelabPluginKit/PluginExport.swift", R_OK) == 0,
               access(sources + "/CFramelabPlugin/include/" + headerName, R_OK) == 0 {
                return (sources + "/FramelabPluginKit", sources + "/CFramelabPlugin")
            }
            parts.removeLast()
        }
        return nil
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
