import FramelabCore
import FramelabCV
import FramelabElements
import FramelabFilters
import Testing

@Suite struct FilterTests {
    let registry = FilterRegistry.builtIns

    func randomImage(_ format: PixelFormat = .bgra8, width: Int = 37, height: Int = 11, seed: UInt64 = 1) -> Mat {
        let m = Mat(format: format, width: width, height: height, stride: width * format.bytesPerPixel + 8)
        var state = seed
        for y in 0..<height { for x in 0..<width {
            m.setPixel(x: x, y: y, (0..<format.channels).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double((state >> 33) % 256)
            })
        } }
        return m
    }

    @Test func specParsing() throws {
        let spec = try ElementSpec(parsing: "sepia:intensity=0.5")
        #expect(spec.name == "sepia" && spec.arguments.map(\.key) == ["intensity"] && spec.arguments[0].value == "0.5")
        #expect(try ElementSpec(parsing: "gray").arguments.isEmpty)
        #expect(throws: FramelabError.self) { try ElementSpec(parsing: "sepia:intensity") }
        #expect(throws: FramelabError.self) { try ElementSpec(parsing: ":x=1") }
        #expect(throws: FramelabError.self) { try ElementSpec(parsing: "hue:angle=1,angle=2") }
    }

    @Test func badParametersAreNamedErrors() throws {
        #expect(throws: FramelabError(.badInput, "filter 'sepia': parameter 'intensity' = 1.5 is outside 0…1")) {
            try registry.instantiate(ElementSpec(parsing: "sepia:intensity=1.5"))
        }
        #expect(throws: FramelabError(.badInput, "filter 'sepia': parameter 'intensity' expects a number, got 'lots'")) {
            try registry.instantiate(ElementSpec(parsing: "sepia:intensity=lots"))
        }
        #expect(throws: FramelabError(.badInput, "filter 'hue': unknown parameter 'degrees' (known: angle)")) {
            try registry.instantiate(ElementSpec(parsing: "hue:degrees=30"))
        }
        let unknown = #expect(throws: FramelabError.self) { try registry.instantiate(ElementSpec(parsing: "blurry")) }
        #expect(unknown?.message.hasPrefix("unknown filter 'blurry'") == true)
    }

    @Test func nameClashIsReportedNotResolved() throws {
        var r = FilterRegistry.builtIns
        let clash = FilterDescriptor(name: "sepia", summary: "", parameters: [], formats: [.bgra8], origin: "/tmp/x.so") { _ in
            fatalError("not instantiated")
        }
        #expect(throws: FramelabError.self) { try r.register(clash) }
        #expect(r["sepia"]?.origin == "built-in")
    }

    @Test(arguments: [PixelFormat.bgra8, .bgr8])
    func grayMatchesOpenCVWithinOne(format: PixelFormat) throws {
        let image = randomImage(format)
        let ours = try registry.instantiate(ElementSpec(name: "gray")).process(image)
        let theirs = try image.converted(to: .gray8)
        #expect(ours.format == .gray8)
        #expect(ours.maxAbsDifference(to: theirs) <= 1)
    }

    @Test func sepiaAtZeroIntensityAndHueAtZeroAngleAreIdentity() throws {
        let image = randomImage()
        for text in ["sepia:intensity=0", "hue:angle=0", "hue:angle=6.283185307179586"] {
            let out = try registry.instantiate(ElementSpec(parsing: text)).process(image)
            #expect(out.maxAbsDifference(to: image) <= 1, "\(text)")
        }
    }

    @Test func sepiaTurnsWhiteWarmAndKeepsAlpha() throws {
        let image = Mat(format: .bgra8, width: 2, height: 1)
        image.fill([100, 150, 200, 77])  // B, G, R, A
        let out = try registry.instantiate(ElementSpec(name: "sepia")).process(image)
        // R' = .393*200 + .769*150 + .189*100 = 212.85; G' = 189.5; B' = 147.6 (rounded to nearest)
        #expect(out.pixel(x: 1, y: 0) == [148, 190, 213, 77])
    }

    @Test func hueRotationKeepsGrayAndMovesRed() throws {
        let image = Mat(format: .bgr8, width: 2, height: 1)
        image.setPixel(x: 0, y: 0, [128, 128, 128])
        image.setPixel(x: 1, y: 0, [0, 0, 255])
        let out = try registry.instantiate(ElementSpec(parsing: "hue:angle=2.0943951")).process(image)
        #expect(out.pixel(x: 0, y: 0).allSatisfy { abs($0 - 128) <= 1 })
        let rotated = out.pixel(x: 1, y: 0)  // 120° takes red toward green
        #expect(rotated[1] > rotated[2] && rotated[1] > rotated[0])
    }

    @Test func filtersRejectFormatsTheyDoNotTake() throws {
        let sepia = try registry.instantiate(ElementSpec(name: "sepia"))
        #expect(sepia.outputFormat(for: .gray8) == nil)
        #expect(throws: FramelabError.self) { try sepia.process(Mat(format: .gray8, width: 2, height: 2)) }
    }

    @Test func outputBufferIsReusedOnceTheLastOutputIsReleased() throws {
        let sepia = try registry.instantiate(ElementSpec(name: "sepia"))
        // Held: the next frame gets other memory, so the held output keeps its pixels.
        let a = try sepia.process(randomImage(seed: 1))
        let before = a.clone()
        let b = try sepia.process(randomImage(seed: 2))
        #expect(!a.sharesPixels(with: b))
        #expect(a.hasSamePixels(as: before))
        // Released: steady state allocates nothing, the same memory comes back.
        var address: UnsafeRawPointer?
        for seed in 3...5 {
            let out = try sepia.process(randomImage(seed: UInt64(seed)))
            let base = out.withUnsafeBytes { $0.baseAddress }
            if seed > 3 { #expect(base == address) }
            address = base
        }
    }
}
