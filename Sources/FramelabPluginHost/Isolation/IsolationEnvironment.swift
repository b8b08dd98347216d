#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// Where isolation finds its worker.
enum IsolationEnvironment {
    /// The worker executable: $FRAMELAB_PLUGIN_WORKER, else `framelab-plugin-worker`
    /// next to the running executable (the build puts them side by side).
    static func workerExecutable() throws -> String {
        if let path = getenv("FRAMELAB_PLUGIN_WORKER").map({ String(cString: $0) }), !path.isEmpty { return path }
        if let exe = PluginSDK.executablePath() {
            let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let candidate = dir + "/framelab-plugin-worker"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw FramelabError(.io, "cannot find framelab-plugin-worker next to the framelab executable (build it, or set FRAMELAB_PLUGIN_WORKER)")
    }
}
