import Foundation

/// Builds plugins for tests with the system C compiler and only the plugin header,
/// the way a plugin author outside the repository would.
public enum PluginBuilder {
    /// The folder holding framelab_plugin.h in the source tree.
    public static let sdkInclude = TestSupport.packageRoot.appendingPathComponent("Sources/CFramelabPlugin/include").path
    /// Where scripts/build-plugins.sh puts the example plugins.
    public static let builtPlugins = TestSupport.packageRoot.appendingPathComponent(".build/plugins")
    /// The purpose-built broken plugin source (one defect per -DBROKEN_<CASE>).
    public static let brokenSource = TestSupport.packageRoot.appendingPathComponent("Tests/BrokenPlugins/broken.c").path
    public static let exampleC = TestSupport.packageRoot.appendingPathComponent("Plugins/c-invert/invert.c").path

    /// Compiles `source` (-O0, so deliberate memory bugs stay in the code) into `directory/lib<name>.so`; a compiler failure throws its output.
    public static func compile(_ source: String, name: String, in directory: URL, defines: [String] = [],
                               include: String = sdkInclude) throws -> String {
        let out = directory.appendingPathComponent("lib\(name).so").path
        let r = try TestSupport.run("/usr/bin/cc", ["-shared", "-fPIC", "-O0", "-I", include]
                                    + defines.map { "-D" + $0 } + [source, "-o", out])
        guard r.status == 0 else { throw BuildFailure(message: "cc \(source): \(r.stderr)") }
        return out
    }

    /// A broken plugin with one defect, e.g. `broken("CRASH")`; its element is `element`.
    public static func broken(_ defect: String, element: String = "broken", in directory: URL) throws -> String {
        try compile(brokenSource, name: "broken-\(defect.lowercased())-\(element)", in: directory,
                    defines: ["BROKEN_\(defect)", "ELEMENT_NAME=\"\(element)\""])
    }

    /// One of the example plugins built by scripts/build-plugins.sh (e.g. "cpp-canny").
    public static func example(_ name: String) -> String {
        builtPlugins.appendingPathComponent("libframelab-\(name).so").path
    }

    public struct BuildFailure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
