import FramelabCore
import FramelabCV

/// Framelab's own Viola-Jones detector over an OpenCV Haar cascade: the same scales,
/// pyramid, windows, arithmetic and grouping as `cv::CascadeClassifier::detectMultiScale`,
/// with the window evaluation vectorised (`CascadeScanner`). One instance per thread:
/// it keeps its pyramid and integral buffers between images.
public final class HaarCascadeEvaluator {
    public let cascade: HaarCascade
    private var compiled: CompiledCascade?
    private var integrals = IntegralImages()
    private var resizer = BilinearResizer()
    private var level: [UInt8] = []
    private var gray: Mat?

    public init(cascade: HaarCascade) throws {
        if cascade.hasTiltedFeatures {
            throw FramelabError(.unsupported,
                "cascade '\(cascade.path)': tilted (45-degree) features are not evaluated by 'cascade' yet; use opencv-haar")
        }
        self.cascade = cascade
    }

    public convenience init(path: String) throws {
        try self.init(cascade: HaarCascade(contentsOf: path))
    }

    /// Raw windows (before grouping) in image pixels, for tests and for `detect`.
    public func rawWindows(_ image: Mat, settings: SlidingWindowSettings) throws -> [IntRect] {
        let src = image.format == .gray8 ? image : try gray8(image)
        let winW = cascade.windowWidth, winH = cascade.windowHeight
        let maxW = settings.maxSize ?? src.width, maxH = settings.maxSize ?? src.height
        // Scales exactly as OpenCV lists them: factor grows geometrically (double),
        // each kept as a float.
        var scales: [Float] = []
        var factor = 1.0
        while true {
            let ww = Int((Double(winW) * factor).rounded(.toNearestOrEven))
            let wh = Int((Double(winH) * factor).rounded(.toNearestOrEven))
            if ww > maxW || wh > maxH { break }
            if ww >= settings.minSize && wh >= settings.minSize { scales.append(Float(factor)) }
            factor *= settings.scaleFactor
            if ww > src.width && wh > src.height { break }
        }
        guard !scales.isEmpty else { return [] }

        let lanePadding = CascadeScanner.lanes * 2 + 1
        integrals.reserve(maxWidth: src.width, maxHeight: src.height, padding: lanePadding + winW)
        if compiled?.stride != integrals.stride { compiled = CompiledCascade(cascade, stride: integrals.stride) }
        let scanner = CascadeScanner(cascade: compiled!)
        if level.count < src.width * src.height { level = .init(repeating: 0, count: src.width * src.height) }

        var windows: [IntRect] = []
        var hits: [(x: Int, y: Int)] = []
        for scale in scales {
            let w = Int((Float(src.width) / scale).rounded(.toNearestOrEven))
            let h = Int((Float(src.height) / scale).rounded(.toNearestOrEven))
            if w < winW || h < winH { break }
            src.withUnsafeBytes { bytes in
                level.withUnsafeMutableBufferPointer { dst in
                    resizer.resize(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: src.width,
                                   height: src.height, stride: src.stride, into: dst.baseAddress!, width: w, height: h)
                    integrals.compute(dst.baseAddress!, width: w, height: h)
                }
            }
            hits.removeAll(keepingCapacity: true)
            let step = scale >= 2 ? 1 : 2
            integrals.sum.withUnsafeBufferPointer { s in
                integrals.squares.withUnsafeBufferPointer { q in
                    scanner.scan(sum: s.baseAddress!, squares: q.baseAddress!, maxX: w - winW, maxY: h - winH,
                                 step: step, hits: &hits)
                }
            }
            let f = Double(scale)
            let ww = Int((Double(winW) * f).rounded(.toNearestOrEven))
            let wh = Int((Double(winH) * f).rounded(.toNearestOrEven))
            for hit in hits {
                windows.append(IntRect(x: Int((Double(hit.x) * f).rounded(.toNearestOrEven)),
                                       y: Int((Double(hit.y) * f).rounded(.toNearestOrEven)), width: ww, height: wh))
            }
        }
        return windows
    }

    /// Grouped detections; scores are neighbour counts, as `opencv-haar` reports them.
    public func detect(_ image: Mat, settings: SlidingWindowSettings) throws -> [FaceDetection] {
        let raw = try rawWindows(image, settings: settings)
        return RectangleGrouping.group(raw, minNeighbours: settings.minNeighbours).map {
            FaceDetection(box: BoundingBox(x: Double($0.rect.x), y: Double($0.rect.y), width: Double($0.rect.width),
                                           height: Double($0.rect.height)), score: Double($0.neighbours))
        }
    }

    private func gray8(_ image: Mat) throws -> Mat {
        // Colour to gray is not the cascade's work; OpenCV's cvtColor, as opencv-haar does.
        try image.converted(to: .gray8)
    }
}
