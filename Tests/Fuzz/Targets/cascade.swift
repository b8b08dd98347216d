import FramelabCore
import FramelabKernels
@testable import FramelabDetection

/// An OpenCV Haar cascade XML: what HaarCascade makes of the tree XMLTree builds (root,
/// stage type, window, features, stages, trees), and for every cascade it accepts, the
/// evaluator on a small gray image: the cascade compiled to integral-table offsets
/// (CompiledCascade), every window of every scale scanned (CascadeScanner) and grouped.
/// A feature or tree the reader lets through that reaches outside the tables is an
/// AddressSanitizer report here.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "cascade.xml")
    FuzzInput.check(naming: path) {
        let evaluator = HaarCascadeEvaluator(cascade: try HaarCascade(contentsOf: path), kernels: .portable)
        _ = evaluator.detect(gray: CascadeImage.image, settings: CascadeImage.settings)
    }
    return 0
}

enum CascadeImage {
    /// 64x48 pixels of a gradient under noise: every window has some variance, so windows
    /// reach the stages. Small enough that a 3x3 window's dozen levels take microseconds.
    static let image: Mat = {
        let m = Mat(format: .gray8, width: 64, height: 48)
        var random = SplitMix64(seed: 17)
        m.forEachRow(as: UInt8.self) { y, row in
            for x in 0..<m.width { row[x] = UInt8(truncatingIfNeeded: x * 2 + y + Int(random.next() % 64)) }
        }
        return m
    }()

    /// Few levels, every window kept (the grouping still runs).
    static let settings = SlidingWindowSettings(scaleFactor: 1.25, minNeighbours: 1, minSize: 1)
}
