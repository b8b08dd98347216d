import FramelabCore
import FramelabCV
import FramelabDetection
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// Example plugins run in this process give the results their code promises.
@Suite struct PluginFilterTests {
    func cLibrary() throws -> PluginLibrary {
        let dir = try TestSupport.makeTemporaryDirectory()
        return try PluginLibrary(path: PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir))
    }

    @Test func invertMatchesItsReference() throws {
        let invert = try cLibrary().elements[0]
        let filter = try PluginFilter(element: invert, values: ParameterValues(["amount": .float(0.75)]))
        let input = PluginTestImages.gradient(width: 161, height: 33)
        let out = try filter.process(input)
        #expect(!out.sharesPixels(with: input))
        #expect(out.hasSamePixels(as: PluginTestImages.inverted(input, amount: 0.75)))
        #expect(out.pixel(x: 5, y: 7)[3] == input.pixel(x: 5, y: 7)[3], "alpha is kept")
    }

    @Test func noopPassesTheFrameThroughWithoutACopy() throws {
        let noop = try cLibrary().elements[1]
        let filter = try PluginFilter(element: noop, values: ParameterValues([:]))
        let input = PluginTestImages.gradient(width: 64, height: 16, format: .grayF32)
        #expect(try filter.process(input).sharesPixels(with: input))
    }

    @Test func wrongSizeAtRunTimeIsAnErrorNamingTheElement() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.broken("WRONG_SIZE", in: dir)
        let filter = try PluginFilter(element: PluginLibrary(path: path).elements[0], values: ParameterValues([:]))
        #expect { try filter.process(PluginTestImages.gradient(width: 40, height: 10)) } throws: { error in
            let m = (error as? FramelabError)?.message ?? ""
            return m.contains("'broken' (\(path))") && m.contains("returned a 20x10 bgra8 image")
        }
    }

    @Test func swiftPosterizeKeepsOnlyItsLevels() throws {
        let library = try PluginLibrary(path: PluginBuilder.example("swift-posterize"))
        let element = try #require(library.elements.first { $0.info.name == "posterize" })
        let filter = try PluginFilter(element: element, values: ParameterValues(["levels": .int(3), "keep-alpha": .bool(true)]))
        let input = PluginTestImages.gradient(width: 256, height: 8)
        let out = try filter.process(input)
        for x in stride(from: 0, to: 256, by: 5) {
            let p = out.pixel(x: x, y: 3), q = input.pixel(x: x, y: 3)
            for c in 0..<3 { #expect([0, 128, 255].contains(p[c]), "channel \(c) = \(p[c])") }
            #expect(p[3] == q[3])
            #expect(p[1] == (q[1] < 64 ? 0 : q[1] < 192 ? 128 : 255), "green \(q[1]) → \(p[1])")
        }
    }

    @Test func swiftDetectorReportsTheBrightSquare() throws {
        let library = try PluginLibrary(path: PluginBuilder.example("swift-posterize"))
        let element = try #require(library.elements.first { $0.info.name == "bright-spot" })
        #expect(element.info.kind == .detector && element.info.formats == [.gray8])
        let image = Mat(format: .gray8, width: 50, height: 40)
        for y in 10..<20 { for x in 5..<25 { image.setPixel(x: x, y: y, [250]) } }
        let values = try element.values(for: ElementSpec(parsing: "bright-spot:threshold=240"))
        let found = try PluginDetector(element: element, values: values).detect(image)
        #expect(found.count == 1)
        #expect(found.first.map { [$0.box.x, $0.box.y, $0.box.width, $0.box.height] } == [5, 10, 20, 10])
        #expect(abs((found.first?.score ?? 0) - 200.0 / 2000.0) < 1e-6)
        #expect(found.first?.leftEye == nil && found.first?.mouth == nil)
        #expect(try PluginDetector(element: element, values: values).detect(Mat(format: .gray8, width: 8, height: 8)).isEmpty)
    }

    /// `bright-spot` takes only gray8: a BGRA or BGR frame is converted for it (in process
    /// and isolated) and the box is where the square is; a grayF32 frame, which is never
    /// converted, is a one-line error naming what the element accepts.
    @Test func detectorGetsFramesConvertedToAFormatItTakes() throws {
        let library = try PluginLibrary(path: PluginBuilder.example("swift-posterize"))
        let element = try #require(library.elements.first { $0.info.name == "bright-spot" })
        let values = try element.values(for: ElementSpec(parsing: "bright-spot:threshold=240"))
        let inProcess = try PluginDetector(element: element, values: values)
        let isolated = try IsolatedPluginDetector(element: element, values: values)
        for format in [PixelFormat.bgra8, .bgr8] {
            let image = Mat(format: format, width: 50, height: 40)
            image.fill(Array(repeating: 0, count: format.channels))
            for y in 10..<20 { for x in 5..<25 { image.setPixel(x: x, y: y, Array(repeating: 250, count: format.channels)) } }
            for (how, detector) in [("in process", inProcess as any FaceDetector), ("isolated", isolated)] {
                let found = try detector.detect(image)
                #expect(found.map { [$0.box.x, $0.box.y, $0.box.width, $0.box.height] } == [[5, 10, 20, 10]], "\(format) \(how)")
            }
        }
        let float = Mat(format: .grayF32, width: 8, height: 8)
        for detector in [inProcess as any FaceDetector, isolated] {
            #expect {
                _ = try detector.detect(float)
            } throws: { error in
                (error as? FramelabError)?.message == "element \(element.label) does not accept \(PixelFormat.grayF32) images (accepts gray8)"
            }
        }
    }

    @Test func cppCannyFindsTheSquaresEdgesOnly() throws {
        let element = try #require(try PluginLibrary(path: PluginBuilder.example("cpp-canny")).elements.first)
        let filter = try PluginFilter(element: element, values: ParameterValues(
            ["low": .float(50), "high": .float(150), "aperture": .string("3"), "l2": .bool(false)]))
        let input = Mat(format: .bgr8, width: 120, height: 90)
        input.fill([20, 20, 20])
        for y in 30..<60 { for x in 40..<80 { input.setPixel(x: x, y: y, [230, 230, 230]) } }
        let out = try filter.process(input)
        #expect(out.format == .gray8 && out.width == 120 && out.height == 90)
        var edges = 0
        for y in 0..<90 {
            for x in 0..<120 where out.pixel(x: x, y: y)[0] != 0 {
                edges += 1
                let nearBorder = (abs(x - 40) <= 1 || abs(x - 79) <= 1) && (29...60).contains(y)
                    || (abs(y - 30) <= 1 || abs(y - 59) <= 1) && (39...80).contains(x)
                #expect(nearBorder, "edge pixel at (\(x), \(y)) is away from the square's border")
            }
        }
        #expect(edges > 100, "the square's outline has ~140 pixels, got \(edges)")
    }

    @Test func lbpFaceDetectorFindsMessisFace() throws {
        let element = try #require(try PluginLibrary(path: PluginBuilder.example("cpp-lbp-face")).elements.first)
        #expect(element.info.kind == .detector)
        let values = try element.values(for: ElementSpec(name: "lbp-face"))
        let image = try ImageCodec.read("/usr/share/doc/opencv-doc/examples/data/messi5.jpg", as: .bgr8)
        let inProcess = try PluginDetector(element: element, values: values).detect(image)
        #expect(inProcess.count >= 1)
        // Messi's face in messi5.jpg (548x342) is about 37 px wide, centred near (245, 112)
        // (checked by drawing the boxes); the cascade also finds two false positives there.
        #expect(inProcess.contains { d in
            abs(d.box.center.x - 245) < 12 && abs(d.box.center.y - 112) < 12 && (25...50).contains(d.box.width)
        }, "\(inProcess)")
        let isolated = try IsolatedPluginDetector(element: element, values: values).detect(image)
        // OpenCV groups candidates found by parallel workers, so the order may differ; the boxes may not.
        func sorted(_ d: [FaceDetection]) -> [FaceDetection] {
            d.sorted { ($0.box.x, $0.box.y, $0.box.width) < ($1.box.x, $1.box.y, $1.box.width) }
        }
        #expect(sorted(isolated) == sorted(inProcess))
    }
}
