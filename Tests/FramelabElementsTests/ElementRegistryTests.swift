import Testing
import FramelabCore
import FramelabElements

private struct ToyDescriptor: ElementDescriptor {
    static let kind = ElementKind.detector
    let name: String
    var summary = "a toy"
    var parameters = [ParameterSpec(name: "scale", type: .float, minimum: 1, maximum: 2, defaultValue: .float(1.5),
                                    summary: "how much")]
    var origin = builtInOrigin
}

@Suite struct ElementRegistryTests {
    @Test func errorsNameTheElementKind() throws {
        let toy = ToyDescriptor(name: "toy")
        #expect(throws: FramelabError(.badInput, "detector 'toy': parameter 'scale' = 3.0 is outside 1…2")) {
            _ = try toy.parameterValues(ElementSpec(parsing: "toy:scale=3"))
        }
        #expect(throws: FramelabError(.badInput, "detector 'toy': unknown parameter 'size' (known: scale)")) {
            _ = try toy.parameterValues(ElementSpec(parsing: "toy:size=3"))
        }
        #expect(throws: FramelabError(.badInput, "unknown detector 'toys' (known: toy; a plugin's? give its file or folder "
                                      + "with --plugin-path: the working folder is not searched)")) {
            _ = try ElementRegistry(builtIns: [toy]).descriptor(for: ElementSpec(name: "toys"))
        }
    }

    @Test func valuesKeepDefaultsAndSayWhichWereGiven() throws {
        let values = try ToyDescriptor(name: "toy").parameterValues(ElementSpec(parsing: "toy"))
        #expect(values.double("scale") == 1.5)
        #expect(!values.isSet("scale"))
        #expect(try ToyDescriptor(name: "toy").parameterValues(ElementSpec(parsing: "toy:scale=2")).isSet("scale"))
    }

    @Test func aPluginsErrorsNameItsFile() {
        let plugin = ToyDescriptor(name: "toy", origin: "/p/libtoy.so")
        #expect(throws: FramelabError(.badInput, "/p/libtoy.so: detector 'toy': parameter 'scale' expects a number, got 'x'")) {
            _ = try plugin.parameterValues(ElementSpec(parsing: "toy:scale=x"))
        }
    }

    @Test func aNameIsDefinedOnce() throws {
        var registry = ElementRegistry(builtIns: [ToyDescriptor(name: "toy")])
        #expect(throws: FramelabError(.badInput, ElementNameClash.message("toy", origins: ["built-in", "/p/libtoy.so"]))) {
            try registry.register(ToyDescriptor(name: "toy", origin: "/p/libtoy.so"))
        }
        #expect(registry.names == ["toy"])
        let clashes = ElementNameClash.find([("toy", "built-in"), ("toy", "/a.so"), ("other", "/b.so"), ("x", "/a.so"), ("x", "/b.so")])
        #expect(clashes.keys.sorted() == ["toy", "x"])
        #expect(clashes["x"] == "element name 'x' is defined more than once (/a.so, /b.so); rename one or drop it from the plugin path")
    }
}
