import Foundation
import FramelabTestSupport
import Testing

/// Plugins out of harm's way, through the real binary: a file on the plugin path whose
/// constructor exits or crashes costs other commands one warning line, commands that use
/// only built-ins load no plugin at all, `plugins check` diagnoses such files in words, a
/// warm cache starts no worker, and an in-process plugin crash is one line naming it.
@Suite(.serialized) struct PluginDiscoveryCommandTests {
    /// A plugin folder with a constructor that exits(42), one that crashes, and one that
    /// writes who loaded it to the marker file; a fresh cache folder.
    func hostilePath() throws -> (dir: URL, plugins: URL, marker: URL, environment: [String: String]) {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugins = dir.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        _ = try PluginBuilder.broken("CONSTRUCTOR_EXIT", element: "exits", in: plugins)
        _ = try PluginBuilder.broken("CONSTRUCTOR_CRASH", element: "crashes", in: plugins)
        _ = try PluginBuilder.broken("CONSTRUCTOR_MARKER", element: "marked", in: plugins)
        let marker = dir.appendingPathComponent("marker.txt")
        return (dir, plugins, marker, ["FRAMELAB_TEST_MARKER": marker.path,
                                       "FRAMELAB_CACHE_DIR": dir.appendingPathComponent("cache").path])
    }

    func loaders(_ marker: URL) -> [String] {
        ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func builtInsOnlyCommandsLoadNoPluginAndSkipBrokenFilesInOneLine() throws {
        let (dir, plugins, marker, env) = try hostilePath()
        let out = dir.appendingPathComponent("run.h5").path
        let commands: [[String]] = [
            ["filters"],
            ["run", "--source", "synthetic:64x48@30", "--frames", "3", "--filter", "sepia", "--out", out],
            ["eval", "--dataset", EvalCommandTests.sample, "--detector", "opencv-haar", "--out", out],
            ["detectors"],
        ]
        for command in commands {
            let r = try TestSupport.framelab(command + ["--plugin-path", plugins.path], environment: env)
            #expect(r.status == 0 && !r.signalled, "\(command): \(r.status) \(r.stderr)")
            let warnings = r.stderr.split(separator: "\n").filter { $0.contains("skipped plugin") }
            #expect(warnings.count == 2, "\(command): \(r.stderr)")
            #expect(warnings.contains { $0.contains("libbroken-constructor_exit-exits.so") && $0.contains("exited with status 42") })
            #expect(warnings.contains { $0.contains("libbroken-constructor_crash-crashes.so") && $0.contains("SIGSEGV") })
        }
        #expect(!loaders(marker).isEmpty && loaders(marker).allSatisfy { $0 == "framelab-plugin-worker" },
                "the host never ran a plugin constructor: \(loaders(marker))")
        // The filter list still shows the healthy plugin's element.
        let filters = try TestSupport.framelab(["filters", "--plugin-path", plugins.path], environment: env)
        #expect(filters.stdout.contains("marked  ["))
    }

    @Test func aWarmCacheStartsNoWorker() throws {
        let (_, plugins, marker, env) = try hostilePath()
        let cold = try TestSupport.framelab(["plugins", "list", "--plugin-path", plugins.path], environment: env)
        #expect(cold.status == 0, "\(cold.stderr)")
        let afterCold = loaders(marker).count
        #expect(afterCold == 1)
        for command in [["plugins", "list"], ["filters"], ["detectors"]] {
            let r = try TestSupport.framelab(command + ["--plugin-path", plugins.path], environment: env)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        #expect(loaders(marker).count == afterCold, "no worker on a warm cache")
        _ = try TestSupport.framelab(["filters", "--plugin-path", plugins.path, "--no-plugin-cache"], environment: env)
        #expect(loaders(marker).count == afterCold + 1, "--no-plugin-cache checks again")
        var off = env
        off["FRAMELAB_CACHE_DIR"] = "off"
        _ = try TestSupport.framelab(["filters", "--plugin-path", plugins.path], environment: off)
        #expect(loaders(marker).count == afterCold + 2, "FRAMELAB_CACHE_DIR=off checks again")
    }

    @Test func pluginsCheckDiagnosesConstructorsThatExitCrashOrHang() throws {
        let (_, plugins, _, env) = try hostilePath()
        for (file, expected) in [("libbroken-constructor_exit-exits.so", "exited with status 42 while loading the file"),
                                 ("libbroken-constructor_crash-crashes.so", "crashed with signal 11 (SIGSEGV) while loading the file")] {
            let path = plugins.appendingPathComponent(file).path
            let r = try TestSupport.framelab(["plugins", "check", path], environment: env)
            #expect(r.status == 1 && !r.signalled, "\(file): \(r.status)")
            #expect(r.stderr.hasPrefix("framelab: error: \(path): the plugin worker \(expected)"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
    }

    @Test func listStrictAndJSONTellTheTruth() throws {
        let (dir, plugins, _, env) = try hostilePath()
        // A plugin element named like a built-in: the name is unusable on both sides.
        let sepia = try PluginBuilder.broken("NONE", element: "sepia", in: dir)
        let plain = try TestSupport.framelab(["plugins", "list", "--plugin-path", plugins.path], environment: env)
        #expect(plain.status == 0)
        let strict = try TestSupport.framelab(["plugins", "list", "--strict", "--plugin-path", plugins.path], environment: env)
        #expect(strict.status == 1 && strict.stdout.contains("problem: "), "\(strict.stdout)")
        let good = try PluginBuilder.broken("NONE", element: "fine", in: dir.appendingPathComponent("good", isDirectory: true)
            .creatingDirectory())
        let clean = try TestSupport.framelab(["plugins", "list", "--strict", "--plugin-path", good], environment: env)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        let json = try TestSupport.framelab(["plugins", "list", "--json", "--strict", "--plugin-path", sepia], environment: env)
        #expect(json.status == 1)
        struct Listing: Decodable {
            struct Entry: Decodable { let name: String; let origin: String; let status: String }
            let elements: [Entry]
            let problems: [String]
        }
        let listing = try JSONDecoder().decode(Listing.self, from: Data(json.stdout.utf8))
        #expect(listing.problems.contains { $0.contains("sepia") })
        let both = listing.elements.filter { $0.name == "sepia" }
        #expect(both.count == 2 && both.allSatisfy { $0.status.hasPrefix("unusable: ") }, "\(both)")
    }

    @Test func anInProcessCrashIsOneLineSuggestingIsolate() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let crash = try PluginBuilder.broken("CRASH_ON_FRAMES", in: dir)
        let env = ["FRAMELAB_CACHE_DIR": dir.appendingPathComponent("cache").path]
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "10", "--plugin-path", crash,
                                          "--filter", "broken", "--out", dir.appendingPathComponent("r.h5").path],
                                         environment: env)
        #expect(r.status != 0)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("element 'broken' (\(crash)) crashed with SIGSEGV while processing a frame")
                && r.stderr.contains("--isolate"), "\(r.stderr)")
        let exits = try PluginBuilder.broken("EXIT_ON_FRAMES", element: "quits", in: dir)
        let e = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "10", "--plugin-path", exits,
                                          "--filter", "quits", "--out", dir.appendingPathComponent("e.h5").path],
                                         environment: env)
        #expect(e.status == 3)
        #expect(e.stderr.contains("element 'quits' (\(exits)) called exit() while processing a frame"), "\(e.stderr)")
    }
}

private extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
