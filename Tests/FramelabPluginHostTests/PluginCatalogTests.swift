import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// Discovery, one registry for built-ins and plugins, clashes, and run-time parameter checks.
@Suite struct PluginCatalogTests {
    @Test func discoversAFolderAndReportsBrokenFiles() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        _ = try PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir)
        let bad = try PluginBuilder.broken("ABI_MAJOR", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [dir.path, dir.path + "/"])
        #expect(catalog.elements.map(\.info.name) == ["negative", "noop", "fade-in"], "the same file is loaded once")
        #expect(catalog.problems.count == 1)
        #expect(catalog.problems.first?.hasPrefix(bad) == true)
    }

    @Test func searchPathOrder() throws {
        let path = PluginCatalog.searchPath(explicit: ["/a:/b", "/c"], environment: "/d:/e", includeBuilt: false)
        #expect(path == ["/a", "/b", "/c", "/d", "/e"])
        let missing = PluginCatalog.discover(searchPath: ["/no/such/plugins"], explicit: ["/no/such/plugins"])
        #expect(missing.problems == ["/no/such/plugins: no such plugin file or folder"])
    }

    @Test func pluginFiltersJoinTheBuiltInRegistry() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir)
        let (registry, clashes) = PluginCatalog.discover(searchPath: [path]).registry()
        #expect(clashes.isEmpty)
        #expect(registry["sepia"]?.origin == "built-in")
        #expect(registry["negative"]?.origin == path)
        let filter = try registry.instantiate(ElementSpec(parsing: "negative:amount=0.25"))
        let input = PluginTestImages.gradient(width: 32, height: 8)
        #expect(try filter.process(input).hasSamePixels(as: PluginTestImages.inverted(input, amount: 0.25)))
    }

    @Test func outOfRangeValueNamesFileElementAndRange() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [path])
        let spec = try ElementSpec(parsing: "negative:amount=5")
        #expect(throws: FramelabError.self) { try catalog.registry().registry.instantiate(spec) }
        #expect { try catalog.element(named: "negative")!.values(for: spec) } throws: { error in
            let m = (error as? FramelabError)?.message ?? ""
            return m.hasPrefix(path) && m.contains("'negative'") && m.contains("'amount' = 5.0 is outside 0…1")
        }
    }

    @Test func nameClashesAreReportedNeverResolved() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let one = try PluginBuilder.broken("NONE", element: "twin", in: dir)
        let other = try PluginBuilder.compile(PluginBuilder.brokenSource, name: "other-twin", in: dir,
                                              defines: ["BROKEN_NONE", "ELEMENT_NAME=\"twin\""])
        let sepia = try PluginBuilder.broken("NONE", element: "sepia", in: dir)
        let (registry, clashes) = PluginCatalog.discover(searchPath: [one, other, sepia]).registry()
        #expect(registry["twin"] == nil, "neither twin is chosen")
        #expect(clashes["twin"]?.contains(one) == true && clashes["twin"]?.contains(other) == true)
        #expect(registry["sepia"]?.origin == "built-in")
        #expect(clashes["sepia"]?.contains(sepia) == true && clashes["sepia"]?.contains("built-in") == true)
    }

    @Test func aPluginFilterNamedLikeABuiltInDetectorIsRefusedAsBoth() throws {
        // broken.c's element is a filter; "cascade" is a built-in detector.
        let dir = try TestSupport.makeTemporaryDirectory()
        let filter = try PluginBuilder.broken("NONE", element: "cascade", in: dir)
        let catalog = PluginCatalog.discover(searchPath: [filter])
        #expect(catalog.element(named: "cascade")?.info.kind == .filter)
        let filters = catalog.registry()
        #expect(filters.registry["cascade"] == nil, "the plugin filter is not chosen")
        #expect(filters.clashes["cascade"]?.contains(filter) == true && filters.clashes["cascade"]?.contains("built-in") == true)
        let detectors = catalog.detectorRegistry()
        #expect(detectors.registry["cascade"]?.origin == "built-in")
        #expect(detectors.clashes["cascade"] == filters.clashes["cascade"])
    }
}
