#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FramelabCore

/// The discovery worker's verdicts and passed test runs, one small JSON file per plugin
/// content: `<folder>/plugins/<sha256>-abi<ABI>-<framelab version>-<build>-<env>.json`, where
/// `<build>` is the worker executable's size and modification time (a rebuilt checker may
/// judge differently, though the version is the same) and `<env>` a digest of the
/// environment plugins are documented to read (`FRAMELAB_MODELS`: a detector's default model
/// path comes from it, so a description depends on it; `FRAMELAB_PYTHON_VENV` and
/// `VIRTUAL_ENV` choose the modules a Python element file imports), and `<build>` includes
/// the Python bridge's build. Other environment a plugin reads
/// is not tracked: `--no-plugin-cache` checks afresh. So `filters`, `detectors` and
/// `plugins list` start no worker for a file they have seen, and a new build of Framelab or
/// a changed file is checked afresh. The folder is
/// `$FRAMELAB_CACHE_DIR`, else `$XDG_CACHE_HOME/framelab`, else `~/.cache/framelab`;
/// `FRAMELAB_CACHE_DIR=off` (or `--no-plugin-cache`) turns it off. A file that cannot be
/// read or decoded is a miss, and one that cannot be written is skipped: the cache only
/// saves time.
public struct PluginVerdictCache: Sendable {
    public static let environmentVariable = "FRAMELAB_CACHE_DIR"
    /// The folder the entries live in.
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// The cache the environment asks for; nil when it is turned off or no home is known.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> PluginVerdictCache? {
        if let dir = environment[environmentVariable], !dir.isEmpty {
            return dir == "off" ? nil : PluginVerdictCache(folder: dir + "/plugins")
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return PluginVerdictCache(folder: xdg + "/framelab/plugins")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return PluginVerdictCache(folder: home + "/.cache/framelab/plugins")
    }

    private struct Entry: Codable {
        var checkedPath: String
        var verdict: PluginFileVerdict
    }

    func file(sha256: String) -> String {
        let version = FramelabVersion.string.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        return "\(folder)/\(sha256)-abi\(PluginABI.versionText)-\(String(version))-\(Self.checkerBuild)-\(Self.environmentDigest).json"
    }

    /// Environment variables whose value can change what a plugin describes.
    static let describedEnvironment = ["FRAMELAB_MODELS", "FRAMELAB_PYTHON_VENV", "VIRTUAL_ENV"]

    /// The first 12 hex digits of a digest of `describedEnvironment`'s values (unset ≠ empty).
    static let environmentDigest: String = {
        var digest = SHA256()
        let environment = ProcessInfo.processInfo.environment
        for name in describedEnvironment {
            digest.update(name + (environment[name].map { "=" + $0 } ?? "") + "\u{0}")
        }
        return String(digest.hexDigest().prefix(12))
    }()

    /// The worker executable's size and modification time in hex, "none" without one.
    static let checkerBuild: String = {
        var s = stat()
        guard let worker = try? IsolationEnvironment.workerExecutable(), stat(worker, &s) == 0 else { return "none" }
        let build = String(s.st_size, radix: 16) + "." + String(s.st_mtim.tv_sec, radix: 16) + String(s.st_mtim.tv_nsec, radix: 16)
        // Python element files are described by the bridge: its build counts too.
        return PythonBridge.build.isEmpty ? build : build + "." + String(bridgeDigest.prefix(8))
    }()

    private static var bridgeDigest: String {
        var digest = SHA256()
        digest.update(PythonBridge.build)
        return digest.hexDigest()
    }

    /// The verdict for content `sha256`, found at `path`; nil on a miss.
    func read(sha256: String, path: String) -> PluginFileVerdict? {
        guard let data = FileManager.default.contents(atPath: file(sha256: sha256)),
              let entry = try? JSONDecoder().decode(Entry.self, from: data) else { return nil }
        return entry.verdict.moved(from: entry.checkedPath, to: path)
    }

    /// Stores what may be kept of `verdict` (`cachedPart`) for content `sha256` checked at `path`.
    func write(_ verdict: PluginFileVerdict, sha256: String, path: String) {
        guard let kept = verdict.cachedPart,
              let data = try? JSONEncoder().encode(Entry(checkedPath: path, verdict: kept)) else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Written beside and renamed: a reader never sees half an entry.
        let target = file(sha256: sha256)
        let temporary = target + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        if rename(temporary, target) != 0 { unlink(temporary) }
    }
}
