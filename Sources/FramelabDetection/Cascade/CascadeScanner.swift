import FramelabKernels

/// Scans every window of one pyramid level, a row of windows at a time, with a level's
/// cascade row kernel (`PortableKernels.cascadeRow`, compiled once per instruction-set
/// level: `KernelTable.cascadeRow`), which evaluates eight neighbouring windows at once.
struct CascadeScanner {
    /// The kernel's signature: layout, the row's integral entries, last window x, step,
    /// hits; returns the number of hits.
    typealias Row = @Sendable (UnsafeRawPointer, UnsafePointer<Int32>, UnsafePointer<UInt32>, Int, Int,
                               UnsafeMutablePointer<Int32>) -> Int

    /// Windows a group of lanes spans: the integral tables need this much room past a row's
    /// last window (`HaarCascadeEvaluator` pads them).
    static let lanes = 8

    let cascade: CompiledCascade
    let row: Row

    /// Scans a level whose integral tables are `sum`/`squares`; appends the top-left
    /// corners (level pixels) of windows that pass every stage. At step 2 the tables' rows
    /// must be split (`SplitRows`, `IntegralImages.compute(split:)`).
    func scan(sum: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>, maxX: Int, maxY: Int, step: Int,
              hits: inout [(x: Int, y: Int)]) {
        guard maxX >= 0, maxY >= 0 else { return }
        let stride = cascade.stride
        var xs = [Int32](repeating: 0, count: maxX + 1)
        cascade.withLayout(splitRows: step == 2) { layout in
            xs.withUnsafeMutableBufferPointer { xs in
                var y = 0
                while y <= maxY {
                    let at = y * stride
                    let found = row(layout, sum + at, squares + at, maxX, step, xs.baseAddress!)
                    for k in 0..<found { hits.append((Int(xs[k]), y)) }
                    y += step
                }
            }
        }
    }
}
