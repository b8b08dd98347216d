import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// Elements written in Python (Plugins/python-example/elements.py and broken files written
/// here), run through the real Python bridge (.build/python, built by scripts/build-plugins.sh)
/// with the project venv's numpy: in process and in a worker, pixels checked against a Swift
/// computation of the same formula, boxes, parameter ranges, and every broken case a line.
@Suite(.serialized) struct PythonElementTests {
    static let example = TestSupport.packageRoot.appendingPathComponent("Plugins/python-example/elements.py").path

    func library(_ path: String = example) throws -> PluginLibrary {
        let bridge = TestSupport.packageRoot.appendingPathComponent(".build/python/libframelab-python.so").path
        try #require(FileManager.default.fileExists(atPath: bridge), "run scripts/build-plugins.sh: it builds \(bridge)")
        return try PluginLibrary(path: path)
    }

    func element(_ name: String, in library: PluginLibrary) throws -> PluginElement {
        try #require(library.elements.first { $0.info.name == name }, "\(name) in \(library.elements.map(\.info.name))")
    }

    /// A .py file in a fresh folder with `text`.
    func pythonFile(_ text: String, name: String = "elements.py") throws -> String {
        let dir = try TestSupport.makeTemporaryDirectory("framelab-python")
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// py-vignette's formula in Swift, float32 step by step as numpy computes it.
    static func vignette(_ image: Mat, strength: Double) -> Mat {
        let out = Mat(format: image.format, width: image.width, height: image.height)
        let (w, h) = (image.width, image.height)
        let k = Float(strength * 0.5)
        for y in 0..<h {
            let fy = (Float(y) - Float(Double(h - 1) / 2)) / Float(Double(h) / 2)
            for x in 0..<w {
                let fx = (Float(x) - Float(Double(w - 1) / 2)) / Float(Double(w) / 2)
                let gain = min(max(1 - k * (fy * fy + fx * fx), 0), 1)
                out.setPixel(x: x, y: y, image.pixel(x: x, y: y).enumerated().map { c, v in
                    image.format.channels == 4 && c == 3 ? v : Double((Float(v) * gain).rounded(.toNearestOrEven))
                })
            }
        }
        return out
    }

    /// The largest difference between two images' samples, and how many differ.
    static func difference(_ a: Mat, _ b: Mat) -> (largest: Double, differing: Int) {
        var (largest, differing) = (0.0, 0)
        for y in 0..<a.height {
            for x in 0..<a.width {
                for (p, q) in zip(a.pixel(x: x, y: y), b.pixel(x: x, y: y)) where p != q {
                    largest = max(largest, abs(p - q))
                    differing += 1
                }
            }
        }
        return (largest, differing)
    }

    @Test func theExampleIsDescribedLikeAnyPlugin() throws {
        let lib = try library()
        #expect(lib.elements.map(\.info.name) == ["py-vignette", "py-noop", "py-bright"])
        let vignette = try element("py-vignette", in: lib)
        #expect(vignette.info.kind == .filter && vignette.info.version == "1.0")
        #expect(vignette.info.path == Self.example, "the source file is the .py")
        #expect(vignette.info.formats == [.gray8, .bgr8, .bgra8])
        let strength = try #require(vignette.info.parameters.first)
        #expect(strength.name == "strength")
        #expect(try element("py-bright", in: lib).info.kind == .detector)
    }

    @Test func filterPixelsMatchTheFormulaInEveryFormatAndOnAView() throws {
        let filter = try PluginFilter(element: element("py-vignette", in: library()), values: ParameterValues(["strength": .float(0.8)]))
        for format in [PixelFormat.bgra8, .bgr8, .gray8] {
            let input = PluginTestImages.gradient(width: 101, height: 37, format: format)
            let (largest, differing) = Self.difference(try filter.process(input), Self.vignette(input, strength: 0.8))
            // numpy and Swift may round a product that lands on .5 differently after float32 steps.
            #expect(largest <= 1 && differing * 1000 < 101 * 37 * format.channels, "\(format): \(differing) samples differ, by up to \(largest)")
        }
        // A view whose rows are further apart than its width: the array follows the stride.
        let big = PluginTestImages.gradient(width: 120, height: 50)
        let view = big.view(x: 7, y: 3, width: 90, height: 40)
        #expect(view.stride > 90 * 4)
        let (largest, differing) = Self.difference(try filter.process(view), Self.vignette(view, strength: 0.8))
        #expect(largest <= 1 && differing * 1000 < 90 * 40 * 4, "view: \(differing) samples differ")
    }

    @Test func noopPassesTheFrameThroughWithoutACopy() throws {
        let filter = try PluginFilter(element: element("py-noop", in: library()), values: ParameterValues([:]))
        let input = PluginTestImages.gradient(width: 64, height: 48)
        let out = try filter.process(input)
        #expect(out.hasSamePixels(as: input))
        let same = input.withUnsafeBytes { a in out.withUnsafeBytes { b in a.baseAddress == b.baseAddress } }
        #expect(same, "returning the frame hands back the input's memory")
    }

    @Test func isolatedGivesTheSamePixelsAsInProcess() throws {
        let vignette = try element("py-vignette", in: library())
        let values = ParameterValues(["strength": .float(0.5)])
        let isolated = try IsolatedPluginFilter(element: vignette, values: values)
        let local = try PluginFilter(element: vignette, values: values)
        for (w, h) in [(97, 61), (320, 240)] {
            let input = PluginTestImages.gradient(width: w, height: h)
            #expect(try isolated.process(input).hasSamePixels(as: try local.process(input)))
        }
    }

    @Test func detectorBoxesInProcessAndIsolated() throws {
        let bright = try element("py-bright", in: library())
        let image = Mat(format: .gray8, width: 80, height: 60)
        for y in 0..<60 { for x in 0..<80 { image.setPixel(x: x, y: y, [Double((x + y) % 100)]) } }
        for y in 10..<30 { for x in 20..<50 { image.setPixel(x: x, y: y, [250]) } }  // 30x20 bright block
        let local = try PluginDetector(element: bright, values: ParameterValues(["threshold": .int(200)])).detect(image)
        let isolated = try IsolatedPluginDetector(element: bright, values: ParameterValues(["threshold": .int(200)])).detect(image)
        for found in [local, isolated] {
            #expect(found.count == 1)
            let box = try #require(found.first)
            #expect(box.box.x == 20 && box.box.y == 10 && box.box.width == 30 && box.box.height == 20, "\(box)")
            #expect(abs(Double(box.score) - 600.0 / 4800.0) < 1e-6, "\(box.score)")
        }
        let none = try PluginDetector(element: bright, values: ParameterValues(["threshold": .int(254)])).detect(image)
        #expect(none.isEmpty)
    }

    @Test func parametersAreCheckedAgainstTheirDeclaredRange() throws {
        let vignette = try element("py-vignette", in: library())
        #expect { try vignette.values(for: ElementSpec(parsing: "py-vignette:strength=5")) } throws: { error in
            let m = (error as? FramelabError)?.message ?? ""
            return m.contains(Self.example) && m.contains("strength") && m.contains("1")
        }
        let values = try vignette.values(for: ElementSpec(parsing: "py-vignette:strength=0"))
        let input = PluginTestImages.gradient(width: 40, height: 30)
        #expect(try PluginFilter(element: vignette, values: values).process(input).hasSamePixels(as: input), "strength 0 keeps the image")
    }

    @Test func aLiveChangeReachesThePythonParams() throws {
        let filter = try PluginFilter(element: element("py-vignette", in: library()), values: ParameterValues(["strength": .float(0)]))
        let input = PluginTestImages.gradient(width: 40, height: 30)
        #expect(try filter.process(input).hasSamePixels(as: input))
        try filter.setParameter("strength", to: "1")
        let (largest, _) = Self.difference(try filter.process(input), Self.vignette(input, strength: 1))
        #expect(largest <= 1)
    }

    // ---- broken Python: one line naming the file (and element), never a crash ----

    func expectLoadFails(_ text: String, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try pythonFile(text)
        #expect(sourceLocation: sourceLocation) { try library(path) } throws: { error in
            let m = (error as? FramelabError)?.message ?? "\(error)"
            let ok = m.hasPrefix(path + ": ") && !m.contains("\n") && mentions.allSatisfy { m.contains($0) }
            if !ok { Issue.record("message: \(m)", sourceLocation: sourceLocation) }
            return ok
        }
    }

    @Test func brokenFilesFailInOneLineNamingTheFile() throws {
        try expectLoadFails("import framelab_plugin as fl\ndef broken(:\n", mentions: ["SyntaxError", "line 2"])
        try expectLoadFails("import framelab_plugin as fl\nx = 1\nraise RuntimeError('licence\\nserver down')\n",
                            mentions: ["RuntimeError: licence server down", "line 3"])
        try expectLoadFails("import framelab_plugin as fl\nimport no_such_module_here\n", mentions: ["ModuleNotFoundError", "no_such_module_here"])
        try expectLoadFails("import framelab_plugin as fl\n", mentions: ["declares no element"])
        try expectLoadFails("import framelab_plugin as fl\n@fl.filter('x', description='d', formats=('rgb16',))\ndef f(a, b, p): pass\n",
                            mentions: ["ValueError", "unknown format 'rgb16'", "line 2"])
        // Declarations the host's rules refuse: a default outside its range.
        try expectLoadFails("import framelab_plugin as fl\n@fl.filter('x', description='d', params=[fl.Float('gain', 0, 2, 5, 'g')])\ndef f(a, b, p): pass\n",
                            mentions: ["gain", "outside"])
        try expectLoadFails("import framelab_plugin as fl\n@fl.filter('x')\ndef f(a, b, p): pass\n", mentions: ["element 'x'", "description"])
    }

    func filterFailure(_ body: String, format: PixelFormat = .bgra8) throws -> String {
        let path = try pythonFile("import numpy as np\nimport framelab_plugin as fl\n@fl.filter('bad', description='d', formats=('gray8', 'bgra8'))\ndef bad(frame, out, params):\n" + body)
        let filter = try PluginFilter(element: element("bad", in: library(path)), values: ParameterValues([:]))
        do {
            _ = try filter.process(PluginTestImages.gradient(width: 30, height: 20, format: format))
        } catch let error as FramelabError {
            #expect(error.message.contains("element 'bad' (\(path))") && !error.message.contains("\n"), "\(error.message)")
            return error.message
        }
        Issue.record("no error for: \(body)")
        return ""
    }

    @Test func brokenCallsFailTheFrameInOneLineNamingTheElement() throws {
        #expect(try filterFailure("    return 1 / 0\n").contains("ZeroDivisionError: division by zero (line 5 in bad)"))
        #expect(try filterFailure("    return np.zeros((3, 3), np.uint8)\n").contains("returned (3, 3) uint8"))
        #expect(try filterFailure("    return np.zeros(out.shape, np.float64)\n").contains("float64"))
        #expect(try filterFailure("    return 'text'\n").contains("returned a str"))
        #expect(try filterFailure("    frame[0, 0] = 1\n").contains("read-only"), "the input view cannot be written")
        let gray = try filterFailure("    out[...] = frame[:, :, 0]\n", format: .gray8)
        #expect(gray.contains("IndexError"), "gray frames are 2-D: \(gray)")
        // A filter that keeps going after an error: the next frame works again.
        let path = try pythonFile("import framelab_plugin as fl\ncalls = []\n@fl.filter('flaky', description='d')\ndef flaky(frame, out, params):\n    calls.append(1)\n    if len(calls) == 2:\n        raise ValueError('second')\n    out[...] = frame\n")
        let filter = try PluginFilter(element: element("flaky", in: library(path)), values: ParameterValues([:]))
        let input = PluginTestImages.gradient(width: 16, height: 8)
        #expect(try filter.process(input).hasSamePixels(as: input))
        #expect(throws: FramelabError.self) { try filter.process(input) }
        #expect(try filter.process(input).hasSamePixels(as: input))
    }

    @Test func brokenDetectorsFailInOneLine() throws {
        for (body, mentions) in [("    return 5\n", "returned a int"), ("    return [(1, 2, 3)]\n", "box 0 is not 5 finite numbers"),
                                 ("    return [(1, 2, 3, 4, float('nan'))]\n", "box 0"), ("    raise KeyError('k')\n", "KeyError")] {
            let path = try pythonFile("import framelab_plugin as fl\n@fl.detector('bad-detector', description='d', formats=('gray8',))\ndef bad(frame, params):\n" + body)
            let detector = try PluginDetector(element: element("bad-detector", in: library(path)), values: ParameterValues([:]))
            #expect { try detector.detect(Mat(format: .gray8, width: 20, height: 10)) } throws: { error in
                let m = (error as? FramelabError)?.message ?? ""
                return m.contains(mentions) && m.contains(path) && !m.contains("\n")
            }
        }
    }

    @Test func aFolderContributesOnlyPyFilesThatDeclareElements() throws {
        let dir = try TestSupport.makeTemporaryDirectory("framelab-python-folder")
        try Data("print('not an element file')\n".utf8).write(to: dir.appendingPathComponent("helper.py"))
        try FileManager.default.copyItem(atPath: Self.example, toPath: dir.appendingPathComponent("elements.py").path)
        let catalog = PluginCatalog.discover(searchPath: [dir.path], cache: nil)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        #expect(catalog.elements.map(\.info.name).sorted() == ["py-bright", "py-noop", "py-vignette"])
        #expect(catalog.elements.allSatisfy { $0.info.path.hasSuffix("/elements.py") })
    }
}
