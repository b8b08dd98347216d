import FramelabCore
import FramelabKernels

/// Framelab's own Viola-Jones detector over an OpenCV Haar cascade: the same scales,
/// pyramid, windows, arithmetic and grouping as `cv::CascadeClassifier::detectMultiScale`,
/// with the window evaluation vectorised (`CascadeScanner`). One instance per thread:
/// it keeps its pyramid and integral buffers between images.
///
/// This file works on gray8 images and needs no OpenCV (the cascade fuzz target compiles
/// it alone); colour images go through `HaarCascadeEvaluator+Color.swift`, and the
/// evaluator for the instruction-set level filters use through `HaarCascadeEvaluator+Level.swift`.
public final class HaarCascadeEvaluator {
    public let cascade: HaarCascade
    private var compiled: CompiledCascade?
    private var integrals = IntegralImages()
    private var resizer = BilinearResizer()
    private var level: [UInt8] = []
    private var gray: Mat?

    /// The row kernel of `kernels`' level scans the windows (`KernelTable.cascadeRow`).
    let cascadeRow: CascadeScanner.Row
    /// That level's name ("baseline", "avx2", …), as `FRAMELAB_ISA` and bench results spell it.
    public let kernelLevel: String

    public init(cascade: HaarCascade, kernels: KernelTable) {
        self.cascade = cascade
        cascadeRow = kernels.cascadeRow
        kernelLevel = kernels.name
    }

    /// Raw windows (before grouping) in pixels of the gray8 image `src`.
    func rawWindows(gray src: Mat, settings: SlidingWindowSettings) -> [IntRect] {
        precondition(src.format == .gray8, "the cascade scans gray8 images")
        let winW = cascade.windowWidth, winH = cascade.windowHeight
        let maxW = settings.maxSize ?? src.width, maxH = settings.maxSize ?? src.height
        // Scales exactly as OpenCV 4 lists them: every factor (grown geometrically in double)
        // whose window still fits the image, each kept as a float; then those whose window,
        // recomputed from the float, lies within min and max size (up to the first too large).
        var all: [Float] = []
        var factor = 1.0
        while true {
            let ww = Int((Double(winW) * factor).rounded(.toNearestOrEven))
            let wh = Int((Double(winH) * factor).rounded(.toNearestOrEven))
            if ww > src.width || wh > src.height { break }
            all.append(Float(factor))
            factor *= settings.scaleFactor
        }
        var scales: [Float] = []
        for scale in all {
            let ww = Int((Float(winW) * scale).rounded(.toNearestOrEven))
            let wh = Int((Float(winH) * scale).rounded(.toNearestOrEven))
            if ww > maxW || wh > maxH { break }
            if ww >= settings.minSize && wh >= settings.minSize { scales.append(scale) }
        }
        guard !scales.isEmpty else { return [] }

        let lanePadding = CascadeScanner.lanes * 2 + 1
        integrals.reserve(maxWidth: src.width, maxHeight: src.height, padding: lanePadding + winW,
                          tilted: cascade.hasTiltedFeatures)
        let tiltedBase = cascade.hasTiltedFeatures ? integrals.tableSize : 0
        if compiled?.stride != integrals.stride || compiled?.tiltedBase != tiltedBase {
            compiled = CompiledCascade(cascade, stride: integrals.stride, tiltedBase: tiltedBase)
        }
        let scanner = CascadeScanner(cascade: compiled!, row: cascadeRow)
        if level.count < src.width * src.height { level = .init(repeating: 0, count: src.width * src.height) }

        // OpenCV cuts each level's rows into stripes for its thread pool: as many stripes as
        // the first level's window columns need 32-wide blocks, each stripe a whole number
        // of row steps rounded from a floor division — so the last row or two of a level can
        // fall outside every stripe, and those windows are never visited. Same rows here.
        let firstWidth = Int((Float(src.width) / scales[0]).rounded(.toNearestOrEven))
        let stripes = Int((Double(max(firstWidth + 1 - winW, 0)) / 32).rounded(.up))
        guard stripes > 0 else { return [] }

        var windows: [IntRect] = []
        var hits: [(x: Int, y: Int)] = []
        for scale in scales {
            let w = Int((Float(src.width) / scale).rounded(.toNearestOrEven))
            let h = Int((Float(src.height) / scale).rounded(.toNearestOrEven))
            if w < winW || h < winH { break }
            let step = scale >= 2 ? 1 : 2
            src.withUnsafeBytes { bytes in
                level.withUnsafeMutableBufferPointer { dst in
                    resizer.resize(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: src.width,
                                   height: src.height, stride: src.stride, into: dst.baseAddress!, width: w, height: h)
                    integrals.compute(dst.baseAddress!, width: w, height: h, split: step == 2)
                }
            }
            hits.removeAll(keepingCapacity: true)
            let rows = h + 1 - winH
            let stripeRows = max((rows / step + stripes - 1) / stripes, 1) * step
            let rowEnd = min(stripes * stripeRows, rows)
            integrals.sum.withUnsafeBufferPointer { s in
                integrals.squares.withUnsafeBufferPointer { q in
                    scanner.scan(sum: s.baseAddress!, squares: q.baseAddress!, maxX: w - winW, maxY: rowEnd - 1,
                                 step: step, hits: &hits)
                }
            }
            // Back to image pixels in float, as OpenCV does (x·scale can land exactly on .5
            // in float where the double product is just above it).
            let ww = Int((Float(winW) * scale).rounded(.toNearestOrEven))
            let wh = Int((Float(winH) * scale).rounded(.toNearestOrEven))
            for hit in hits {
                windows.append(IntRect(x: Int((Float(hit.x) * scale).rounded(.toNearestOrEven)),
                                       y: Int((Float(hit.y) * scale).rounded(.toNearestOrEven)), width: ww, height: wh))
            }
        }
        return windows
    }

    /// Grouped detections in the gray8 image `image`; scores are neighbour counts, as
    /// `opencv-haar` reports them. Boxes are clipped to the image (a window scaled back can
    /// overhang the bottom or right edge by a pixel), as `CascadeClassifier::detectMultiScale`
    /// clips them.
    func detect(gray image: Mat, settings: SlidingWindowSettings) -> [FaceDetection] {
        let raw = rawWindows(gray: image, settings: settings)
        return RectangleGrouping.group(raw, minNeighbours: settings.minNeighbours).compactMap { group in
            let r = group.rect
            let x0 = max(r.x, 0), y0 = max(r.y, 0)
            let x1 = min(r.x + r.width, image.width), y1 = min(r.y + r.height, image.height)
            guard x1 > x0, y1 > y0 else { return nil }
            return FaceDetection(box: BoundingBox(x: Double(x0), y: Double(y0), width: Double(x1 - x0),
                                                  height: Double(y1 - y0)), score: Double(group.neighbours))
        }
    }
}
