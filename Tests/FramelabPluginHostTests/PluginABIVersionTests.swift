import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabFilters
import FramelabPipeline
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// The ABI evolving: a plugin built against the frozen 1.0 header, one from a future 2.x
/// minor with larger structs, and 2.0's frame information and live parameters, each a
/// real .so built with cc and loaded with dlopen, in process and in a worker.
@Suite struct PluginABIVersionTests {
    static let sources = TestSupport.packageRoot.appendingPathComponent("Tests/PluginABI")

    func library(_ source: String, include: String = PluginBuilder.sdkInclude) throws -> PluginLibrary {
        let dir = try TestSupport.makeTemporaryDirectory()
        let name = (source as NSString).deletingPathExtension
        return try PluginLibrary(path: PluginBuilder.compile(Self.sources.appendingPathComponent(source).path,
                                                             name: name, in: dir, include: include))
    }

    func v1Library() throws -> PluginLibrary {
        try library("v1_plugin.c", include: Self.sources.appendingPathComponent("v1").path)
    }

    /// `image` with `delta` added to every pixel, clamped (what the offset plugins compute).
    func offset(_ image: Mat, by delta: Int) -> Mat {
        let out = Mat(format: .gray8, width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                out.setPixel(x: x, y: y, [Double(min(255, max(0, Int(image.pixel(x: x, y: y)[0]) + delta)))])
            }
        }
        return out
    }

    func element(_ library: PluginLibrary, _ name: String) throws -> PluginElement {
        try #require(library.elements.first { $0.info.name == name })
    }

    @Test func anABI1PluginLoadsWithEveryElementRead() throws {
        let v1 = try v1Library()
        #expect(v1.abiVersion == "1.0")
        #expect(v1.name == "abi-1.0")
        #expect(v1.elements.map(\.info.name) == ["v1-brighten", "v1-darken", "v1-box"])
        #expect(v1.elements.map(\.info.version) == ["1.0.1", "1.0.2", "1.0.3"])
        #expect(v1.elements.map(\.info.kind) == [.filter, .filter, .detector])
        let darken = try element(v1, "v1-darken").info
        #expect(darken.parameters.map(\.name) == ["amount", "note"])
        #expect(darken.parameters[0].rangeText == "0…100" && darken.parameters[0].defaultValue == .int(3))
        #expect(darken.parameters[1].defaultValue == .string("unused"))
        #expect(darken.summary == "takes amount from every pixel")
    }

    @Test func anABI1PluginPassesItsTrialAndGivesTheRightPixels() throws {
        let v1 = try v1Library()
        for e in v1.elements {
            try PluginTrial.run(e, isolated: false)
            try PluginTrial.run(e, isolated: true)
        }
        let input = PluginTestImages.gradient(width: 97, height: 31, format: .gray8)
        for (name, delta) in [("v1-brighten", 10), ("v1-darken", -3)] {
            let values = try element(v1, name).values(for: ElementSpec(name: name))
            let local = try PluginFilter(element: element(v1, name), values: values)
            let isolated = try IsolatedPluginFilter(element: element(v1, name), values: values)
            #expect(try local.process(input).hasSamePixels(as: offset(input, by: delta)), "\(name) in process")
            #expect(try isolated.process(input).hasSamePixels(as: offset(input, by: delta)), "\(name) isolated")
        }
        let box = try element(v1, "v1-box")
        for found in [try PluginDetector(element: box, values: ParameterValues([:])).detect(input),
                      try IsolatedPluginDetector(element: box, values: ParameterValues([:])).detect(input)] {
            #expect(found.count == 1)
            #expect(found.first.map { [$0.box.x, $0.box.y, $0.box.width, $0.box.height, $0.score] } == [1, 2, 3, 4, 0.5])
        }
    }

    @Test func aFutureMinorWithLargerStructsIsReadByItsStrides() throws {
        let future = try library("future_plugin.c")
        #expect(future.abiVersion == PluginABI.versionText)
        #expect(future.name == "abi-future")
        #expect(future.elements.map(\.info.name) == ["future-brighten", "future-darken"])
        #expect(future.elements.map { $0.info.parameters.map(\.name) } == [["amount", "spare"], ["amount", "other"]])
        #expect(future.elements.map { $0.info.parameters.map(\.defaultValue) } == [[.int(20), .int(7)], [.int(5), .int(9)]])
        #expect(future.elements.map { $0.info.parameters.map(\.summary) } == [["added", "unused"], ["taken", "unused too"]])
        let input = PluginTestImages.gradient(width: 64, height: 16, format: .gray8)
        for (e, delta) in zip(future.elements, [20, -5]) {
            try PluginTrial.run(e, isolated: false)
            let filter = try PluginFilter(element: e, values: e.values(for: ElementSpec(name: e.info.name)))
            #expect(try filter.process(input).hasSamePixels(as: offset(input, by: delta)), "\(e.info.name)")
        }
    }

    @Test func aStructSizeAtTheEndOf2_0sLastFieldIsEnough() throws {
        // Short of sizeof's padding: the minimum is 2.0's layout, not the host's own sizeof,
        // which grows when a later minor appends fields.
        let tight = try library("tight_plugin.c")
        #expect(tight.elements.map(\.info.name) == ["stamp", "stamp-fixed", "stamp-detect"])
        try PluginTrial.run(try element(tight, "stamp"), isolated: false)
    }

    /// Row 0's first five pixels as the stamp plugin wrote them: index, pts ms, arrival µs,
    /// instances created, gain (each mod 256).
    func told(_ image: Mat) -> [Int] { (0..<5).map { Int(image.pixel(x: $0, y: 0)[0]) } }

    @Test func processFrameGetsTheTrueFrameIndexAndTimes() throws {
        let stamp = try element(try library("stamp_plugin.c"), "stamp")
        let values = ParameterValues(["gain": .int(4)])
        let input = PluginTestImages.gradient(width: 32, height: 8, format: .gray8)
        let local = try PluginFilter(element: stamp, values: values)
        let isolated = try IsolatedPluginFilter(element: stamp, values: values)
        for (index, ms, us) in [(7, 42, 123), (300, 17, 9)] {
            let when = FrameStamp(index: index, pts: Int64(ms) * 1_000_000, arrival: UInt64(us) * 1000 + 256_000)
            #expect(told(try local.process(input, stamp: when)) == [index % 256, ms, us, 1, 4])
            #expect(told(try isolated.process(input, stamp: when)) == [index % 256, ms, us, 1, 4])
        }
        // Through the pipeline's filter stage, as a run calls it: the frame's own numbers.
        let stage = FilterStage(local, makeFilter: nil)
        let out = try stage.process(Frame(index: 11, pts: 99_000_000, arrival: 5_000, image: input))
        #expect(told(out.image) == [11, 99, 5, 1, 4])
    }

    @Test func detectFrameGetsTheTrueFrameIndex() throws {
        let detector = try element(try library("stamp_plugin.c"), "stamp-detect")
        let input = PluginTestImages.gradient(width: 32, height: 8, format: .gray8)
        let local = try PluginDetector(element: detector, values: ParameterValues(["gain": .int(2)]))
        let isolated = try IsolatedPluginDetector(element: detector, values: ParameterValues(["gain": .int(2)]))
        for index in [3, 1234] {
            let when = FrameStamp(index: index, pts: 0, arrival: 0)
            #expect(try local.detect(input, stamp: when).map(\.score) == [Double(index)])
            #expect(try isolated.detect(input, stamp: when).map(\.score) == [Double(index)])
        }
    }

    @Test func setParameterTakesEffectOnTheNextFrameWithoutANewInstance() throws {
        let lib = try library("stamp_plugin.c")
        let input = PluginTestImages.gradient(width: 32, height: 8, format: .gray8)
        let when = FrameStamp(index: 1, pts: 0, arrival: 0)
        let values = ParameterValues(["gain": .int(1)])
        let live = try PluginFilter(element: element(lib, "stamp"), values: values)
        let isolated = try IsolatedPluginFilter(element: element(lib, "stamp"), values: values)
        for filter in [live as any StampedFrameFilter & TunableElement, isolated] {
            #expect(told(try filter.process(input, stamp: when))[3...4] == [1, 1])
            try filter.setParameter("gain", to: "9")
            #expect(told(try filter.process(input, stamp: when))[3...4] == [1, 9], "one instance, the new gain")
            #expect(throws: FramelabError.self) { try filter.setParameter("gain", to: "500") }
            #expect(throws: FramelabError.self) { try filter.setParameter("loudness", to: "1") }
            #expect(told(try filter.process(input, stamp: when))[4] == 9, "a refused change keeps the old value")
        }
        #expect(live.instancesCreated == 1 && isolated.instancesCreated == 1)
        let detector = try PluginDetector(element: element(lib, "stamp-detect"), values: values)
        let isolatedDetector = try IsolatedPluginDetector(element: element(lib, "stamp-detect"), values: values)
        for d in [detector as any StampedFaceDetector & TunableElement, isolatedDetector] {
            let before = try d.detect(input, stamp: when).map(\.box.x)  // instances created so far
            try d.setParameter("gain", to: "6")
            let after = try d.detect(input, stamp: when)
            #expect(after.map(\.box.y) == [6])
            #expect(after.map(\.box.x) == before, "no new instance")
        }
        #expect(detector.instancesCreated == 1 && isolatedDetector.instancesCreated == 1)
    }

    @Test func withoutSetParameterTheHostReCreatesTheInstance() throws {
        let lib = try library("stamp_plugin.c")
        let input = PluginTestImages.gradient(width: 32, height: 8, format: .gray8)
        let when = FrameStamp(index: 1, pts: 0, arrival: 0)
        let values = ParameterValues(["gain": .int(1)])
        let local = try PluginFilter(element: element(lib, "stamp-fixed"), values: values)
        let isolated = try IsolatedPluginFilter(element: element(lib, "stamp-fixed"), values: values)
        try local.setParameter("gain", to: "7")
        try isolated.setParameter("gain", to: "7")
        #expect(told(try local.process(input, stamp: when))[3...4] == [2, 7])
        #expect(told(try isolated.process(input, stamp: when))[3...4] == [2, 7])
        #expect(local.instancesCreated == 2 && isolated.instancesCreated == 2)
    }

    @Test func theSwiftKitTakesALiveChangeOrAsksForANewInstance() throws {
        // The example built by scripts/build-plugins.sh with FramelabPluginKit.
        let posterize = try element(try PluginLibrary(path: PluginBuilder.example("swift-posterize")), "posterize")
        let filter = try PluginFilter(element: posterize, values: posterize.values(for: ElementSpec(name: "posterize")))
        let input = PluginTestImages.gradient(width: 64, height: 4)
        func alphas(_ m: Mat) -> [Double] { (0..<m.width).map { m.pixel(x: $0, y: 1)[3] } }
        #expect(alphas(try filter.process(input)) == alphas(input), "keep-alpha by default")
        try filter.setParameter("keep-alpha", to: "false")
        #expect(filter.instancesCreated == 1, "keep-alpha is taken live")
        #expect(alphas(try filter.process(input)) != alphas(input))
        try filter.setParameter("levels", to: "2")
        #expect(filter.instancesCreated == 2, "levels needs a new instance")
        let two = try filter.process(input)
        #expect((0..<two.width).allSatisfy { x in two.pixel(x: x, y: 1).allSatisfy { $0 == 0 || $0 == 255 } },
                "two levels, alpha included (the live change survived the new instance)")
    }
}
