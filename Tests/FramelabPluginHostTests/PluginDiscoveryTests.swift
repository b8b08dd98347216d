import FramelabCore
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// Discovery happens in a worker process: a plugin file whose constructor exits, crashes or
/// hangs is rejected in words (this test process would die if it were loaded here), nothing
/// is loaded into the host until an element runs in process, and verdicts are cached.
@Suite(.serialized) struct PluginDiscoveryTests {
    /// Lines the marker plugin's constructor appended: the name of each program that loaded it.
    static func loaders(_ marker: URL) -> [String] {
        ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func constructorsThatExitOrCrashAreRejectedAndTheRestIsFound() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let exits = try PluginBuilder.broken("CONSTRUCTOR_EXIT", element: "exits", in: dir)
        let crashes = try PluginBuilder.broken("CONSTRUCTOR_CRASH", element: "crashes", in: dir)
        _ = try PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [dir.path])
        #expect(catalog.elements.map(\.info.name) == ["negative", "noop", "fade-in"])
        #expect(catalog.problems.count == 2)
        let exitLine = try #require(catalog.problems.first { $0.hasPrefix(exits) })
        #expect(exitLine.contains("exited with status 42 while loading the file"), "\(exitLine)")
        #expect(exitLine.contains("it printed: licence server unreachable"), "\(exitLine)")
        let crashLine = try #require(catalog.problems.first { $0.hasPrefix(crashes) })
        #expect(crashLine.contains("crashed with signal 11 (SIGSEGV) while loading the file"), "\(crashLine)")
        #expect(!catalog.problems.contains { $0.contains("\n") })
    }

    @Test func aConstructorThatHangsIsKilledAfterTheTimeout() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let hangs = try PluginBuilder.broken("CONSTRUCTOR_HANG", element: "hangs", in: dir)
        let start = Date()
        let verdict = PluginInspector(loadTimeoutMilliseconds: 500).inspect(hangs, trials: false)
        #expect(Date().timeIntervalSince(start) < 5)
        let rejection = try #require(verdict.rejection)
        #expect(rejection.hasPrefix(hangs) && rejection.contains("timed out after 500 ms"), "\(rejection)")
    }

    @Test func theHostLoadsAFileOnlyWhenAnElementRunsInProcess() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let marker = dir.appendingPathComponent("marker.txt")
        setenv("FRAMELAB_TEST_MARKER", marker.path, 1)
        defer { unsetenv("FRAMELAB_TEST_MARKER") }
        _ = try PluginBuilder.broken("CONSTRUCTOR_MARKER", element: "marked", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [dir.path])
        let element = try #require(catalog.element(named: "marked"))
        #expect(Self.loaders(marker) == ["framelab-plugin-worker"], "only the discovery worker ran the constructor")
        // Registering, checking values and an isolated trial need no load here either.
        let (registry, _) = catalog.registry()
        _ = try element.values(for: ElementSpec(parsing: "marked:gain=1.5"))
        try PluginTrial.run(element)
        #expect(!Self.loaders(marker).contains { $0 != "framelab-plugin-worker" })
        let filter = try registry.instantiate(ElementSpec(parsing: "marked"))
        let input = PluginTestImages.gradient(width: 16, height: 8)
        #expect(try filter.process(input).hasSamePixels(as: input))
        #expect(Self.loaders(marker).filter { $0 != "framelab-plugin-worker" }.count == 1, "loaded here once, when used")
    }

    @Test func verdictsAreCachedBySHA256AndAChangedFileIsCheckedAgain() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let cache = PluginVerdictCache(folder: dir.appendingPathComponent("cache").path)
        let marker = dir.appendingPathComponent("marker.txt")
        setenv("FRAMELAB_TEST_MARKER", marker.path, 1)
        defer { unsetenv("FRAMELAB_TEST_MARKER") }
        let plugins = dir.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let path = try PluginBuilder.broken("CONSTRUCTOR_MARKER", element: "marked", in: plugins)
        let exits = try PluginBuilder.broken("CONSTRUCTOR_EXIT", element: "exits", in: plugins)
        let cold = PluginCatalog.discover(searchPath: [plugins.path], cache: cache, trials: true)
        #expect(Self.loaders(marker).count == 1)
        #expect(cold.trialOutcome(try #require(cold.element(named: "marked"))) == "")
        let sha = try #require(SHA256.file(path))
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.folder)
        #expect(entries.contains { $0.hasPrefix(sha) && $0.contains("-abi\(PluginABI.versionText)-\(FramelabVersion.string)-") && $0.hasSuffix(".json") },
                "\(entries)")
        // Warm: no worker starts (the constructor does not run again), the same verdicts come back.
        let warm = PluginCatalog.discover(searchPath: [plugins.path], cache: cache, trials: true)
        #expect(Self.loaders(marker).count == 1)
        #expect(warm.elements.map(\.info) .map(\.name) == ["marked"])
        #expect(warm.elements.first?.info.parameters == cold.elements.first?.info.parameters)
        #expect(warm.trialOutcome(warm.elements[0]) == "")
        #expect(warm.problems == cold.problems && warm.problems.first?.hasPrefix(exits) == true)
        // The same content elsewhere: its cached messages name the new path.
        let moved = dir.appendingPathComponent("libmoved.so").path
        try FileManager.default.copyItem(atPath: exits, toPath: moved)
        #expect(PluginCatalog.discover(searchPath: [moved], cache: cache).problems.first?.hasPrefix(moved) == true)
        // New content at the same path is checked again.
        _ = try PluginBuilder.compile(PluginBuilder.brokenSource, name: "broken-constructor_marker-marked", in: plugins,
                                      defines: ["BROKEN_CONSTRUCTOR_MARKER", "ELEMENT_NAME=\"remarked\""])
        let changed = PluginCatalog.discover(searchPath: [path], cache: cache)
        #expect(changed.elements.map(\.info.name) == ["remarked"])
        #expect(Self.loaders(marker).count == 2)
    }

    @Test func aFileReplacedAfterItsCheckIsNotLoaded() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.broken("NONE", element: "plain", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [path])
        let element = try #require(catalog.element(named: "plain"))
        let exits = try PluginBuilder.broken("CONSTRUCTOR_EXIT", element: "plain", in: dir)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: exits, toPath: path)
        #expect { try PluginFilter(element: element, values: element.values(for: ElementSpec(name: "plain"))) } throws: { error in
            (error as? FramelabError)?.message.contains("changed after the plugin worker checked it") == true
        }
    }

    @Test func aTestRunThatCrashesFailsItsElementInWords() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.broken("CRASH", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [path], trials: true)
        let element = try #require(catalog.element(named: "broken"))
        let outcome = try #require(catalog.trialOutcome(element))
        #expect(outcome.contains("crashed with signal 11 (SIGSEGV)") && outcome.contains(path) && outcome.contains("test run"),
                "\(outcome)")
        let healthy = PluginCatalog.discover(searchPath: [try PluginBuilder.broken("NONE", element: "fine", in: dir)], trials: true)
        #expect(healthy.trialOutcome(healthy.elements[0]) == "")
    }
}
