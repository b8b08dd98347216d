import FramelabCore
import FramelabPipeline
import FramelabSources
import Testing

@Suite struct SourceRegistryTests {
    @Test func everySchemeHasOneNameAndAHelpLineStartingWithIt() {
        let names = SourceRegistry.builtIns.names
        #expect(Set(names).count == names.count)
        #expect(Set(["image", "images", "video", "synthetic", "camera", "dataset"]).isSubset(of: names))
        for scheme in SourceRegistry.builtIns.schemes { #expect(scheme.usage.hasPrefix(scheme.name + ":")) }
    }

    @Test func aRegisteredSchemeOpensAndJoinsTheErrors() throws {
        var registry = SourceRegistry.builtIns
        registry.register(SourceScheme("again", usage: "again:SPEC — another source's frames") { spec in
            try SourceRegistry.builtIns.open(spec.target)
        })
        let source = try registry.open("again:synthetic:32x24@30")
        #expect(source.isLive && source.nominalFPS == 30)
        let error = #expect(throws: FramelabError.self) { try registry.open("nothing") }
        #expect(error?.message == "source 'nothing': expected SCHEME:TARGET (schemes: \(registry.names.joined(separator: ", ")))")
        #expect(registry.names.last == "again")
    }

    @Test func aSynopsisDropsTheOptionsAndTheHelp() {
        #expect(VideoSource.scheme.synopsis == "video:PATH[?…]")
        #expect(SyntheticSource.scheme.synopsis == "synthetic:WxH@FPS")
    }
}
