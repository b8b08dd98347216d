import FramelabCore
import FramelabKernels

/// Renders a `Recipe`: keeps the fused plan, compiled kernels, intermediate images and
/// composite layers for the last input shape, so a stream of same-shape frames only
/// does pixel work.
public final class RecipeRenderer {
    public let recipe: Recipe
    public var threads: Int
    /// The kernel level, fixed when the renderer is made (`KernelLevel.current`).
    public let level: KernelLevel
    private(set) var compiled: (key: LayerKey, plan: RecipePlan, passes: [CompiledPass])?
    /// Rows per chunk inside a band: small enough that colour steps after a head find the
    /// rows still in cache.
    static let chunkRows = 8
    /// Rows per chunk when a head is followed by colour steps: about 16 KB of output, so
    /// the rows just written are still in the 32 KB L1 cache when the next step reads them
    /// (8 rows of 1080p BGRA are 61 KB, which had the lookup step re-read them from L2).
    static func chunkRows(rowBytes: Int) -> Int {
        max(1, min(chunkRows, 16_384 / max(1, rowBytes)))
    }

    public init(_ recipe: Recipe, threads: Int = 1) {
        self.recipe = recipe
        self.threads = max(1, threads)
        level = KernelLevel.current
    }

    /// The plan for an input shape (cached).
    public func plan(for input: Mat) throws -> RecipePlan {
        try compile(input).plan
    }

    /// Output format and size for an input of this shape.
    public func outputShape(for input: Mat) throws -> ImageShape {
        try compile(input).plan.output
    }

    /// Runs every pass; `output` must have the plan's output shape.
    public func render(_ input: Mat, into output: Mat) throws {
        let passes = try compile(input).passes
        var source = input
        for (i, pass) in passes.enumerated() {
            let target = i == passes.count - 1 ? output : pass.intermediate!
            precondition(target.format == pass.plan.output.format && target.width == pass.plan.output.width
                         && target.height == pass.plan.output.height, "render: output shape does not match the plan")
            pass.run(source, into: target, threads: threads)
            source = target
        }
    }

    private func compile(_ input: Mat) throws -> (key: LayerKey, plan: RecipePlan, passes: [CompiledPass]) {
        let key = LayerKey(format: input.format, width: input.width, height: input.height)
        if let compiled, compiled.key == key { return compiled }
        let plan = try recipe.plan(format: input.format, width: input.width, height: input.height)
        let passes = plan.passes.enumerated().map { i, pass in
            CompiledPass(plan: pass, isLast: i == plan.passes.count - 1, kernels: level.kernels)
        }
        compiled = (key, plan, passes)
        return (key, plan, passes)
    }
}

/// One pass with its kernels built and its buffers allocated.
final class CompiledPass {
    let plan: RecipePlan.Pass
    let intermediate: Mat?
    /// The head's kernel (nil: the pass reads its input).
    private let head: (any OperationKernel)?
    /// The per-pixel steps: a step and the one after it share a kernel where they run in
    /// one loop (`PerPixelOperation.sharedLoop`).
    private let colorKernels: [any OperationKernel]
    private let conversion: (any OperationKernel)?
    /// What the head and the per-pixel steps make, before the conversion: the shape of
    /// their rows.
    private let colorShape: ImageShape
    /// When the pass ends in a conversion and has no head: a few rows in the input's
    /// format per band, where the per-pixel steps write before the conversion reads them
    /// (made on the first frame, then kept).
    private(set) var conversionScratch: [Mat] = []
    /// When the pass ends in a conversion after a head: the head's whole output, kept
    /// across frames (the head writes rows at their place in the image).
    private let headOutput: Mat?

    init(plan: RecipePlan.Pass, isLast: Bool, kernels: KernelTable) {
        self.plan = plan
        let out = plan.output
        intermediate = isLast ? nil : Mat(format: out.format, width: out.width, height: out.height)
        head = plan.head?.kernel(for: plan.input, kernels: kernels)
        let headShape = plan.head?.outputShape(format: plan.input.format, width: plan.input.width, height: plan.input.height)
        colorShape = headShape ?? plan.input
        colorKernels = Self.compile(plan.colors.map(\.step), for: colorShape, kernels: kernels)
        conversion = plan.conversion?.kernel(for: colorShape, kernels: kernels)
        headOutput = plan.conversion != nil && plan.head != nil
            ? Mat(format: colorShape.format, width: colorShape.width, height: colorShape.height) : nil
    }

    /// The kernels for a pass's per-pixel steps: a step and the next share one kernel
    /// where the step has a loop for the pair (a matrix then a curve on BGRA).
    static func compile(_ steps: [any PerPixelOperation], for shape: ImageShape, kernels: KernelTable) -> [any OperationKernel] {
        var compiled: [any OperationKernel] = []
        var i = 0
        while i < steps.count {
            if i + 1 < steps.count, steps[i].sharedLoop(with: steps[i + 1], format: shape.format) != nil {
                compiled.append(steps[i].sharedLoopKernel(with: steps[i + 1], for: shape, kernels: kernels))
                i += 2
            } else {
                compiled.append(steps[i].kernel(for: shape, kernels: kernels))
                i += 1
            }
        }
        return compiled
    }

    func run(_ input: Mat, into output: Mat, threads: Int) {
        let rows = output.height
        let bands = RowParallel.bandCount(rows: rows, threads: threads)
        head?.prepare(bands: bands)
        if conversion != nil && head == nil {
            while conversionScratch.count < bands {
                conversionScratch.append(Mat(format: input.format, width: input.width, height: RecipeRenderer.chunkRows))
            }
        }
        // A neighbourhood head keeps a ring of rows across its band: one band per worker.
        // Otherwise rows are independent, and workers share them out in pieces.
        let isNeighbourhood: Bool
        if let operation = plan.head, case .neighbourhood = operation.fusion { isNeighbourhood = true } else { isNeighbourhood = false }
        let pieces = isNeighbourhood ? 1 : RowParallel.piecesPerWorker
        if let head, colorKernels.isEmpty, conversion == nil, let mirror = head.rowMirror(height: rows) {
            runMirrored(head, mirror, input, output, threads: threads)
            return
        }
        RowParallel.runBands(rows: rows, threads: threads, piecesPerWorker: pieces) { index, band in
            if let conversion, head == nil {
                runConversion(conversion, input, output, band, index: index, scratch: conversionScratch[index])
                return
            }
            // The head and the per-pixel steps write here; a conversion then reads it.
            let target = headOutput ?? output
            if isNeighbourhood {
                // A neighbourhood keeps its own ring of rows across the band; per-pixel steps follow it.
                head!.applyVector(input, into: target, rows: band, band: index)
                for k in colorKernels { k.applyVector(target, into: target, rows: band, band: index) }
                conversion?.applyVector(target, into: output, rows: band, band: index)
                return
            }
            if let head, colorKernels.isEmpty, conversion == nil {
                // The head alone (a resampling, or a generator whose rows do not mirror): the
                // whole band in one call.
                head.applyVector(input, into: output, rows: band, band: index)
                return
            }
            if head == nil, colorKernels.count == 1 {
                // One step reading the input: nothing to keep in cache for a next step, so
                // the whole band in one call (per-chunk calls cost about 1 µs each).
                colorKernels[0].applyVector(input, into: output, rows: band, band: index)
                return
            }
            let rowsPerChunk = RecipeRenderer.chunkRows(rowBytes: target.rowBytes)
            var y = band.lowerBound
            while y < band.upperBound {
                let chunk = y..<min(y + rowsPerChunk, band.upperBound)
                runChunk(input, target, chunk, band: index)
                conversion?.applyVector(target, into: output, rows: chunk, band: index)
                y = chunk.upperBound
            }
        }
    }

    /// A lone head whose rows mirror (`RowMirror`): the threads share out the rows it
    /// computes, and each copies the partners of its own rows right after computing them
    /// (still in cache). Sharing out every row, each call computed rows whose partners
    /// another call had made: 2 threads were 1.1–1.5x faster than one on a radial gradient.
    private func runMirrored(_ head: any OperationKernel, _ mirror: RowMirror, _ input: Mat, _ output: Mat, threads: Int) {
        let copies = mirror.copies, computed = output.height - copies.count
        // The rows whose partners are in `copies`: sum − y for y in copies.
        let sources = (mirror.sum - copies.upperBound + 1)..<(mirror.sum - copies.lowerBound + 1)
        RowParallel.runBands(rows: computed, threads: threads, piecesPerWorker: RowParallel.piecesPerWorker) { index, band in
            // A band of computed rows is one run of rows, or two either side of `copies`.
            let before = band.clamped(to: 0..<copies.lowerBound)
            let after = band.clamped(to: copies.lowerBound..<computed)
            let first = mirror.computedRow(after.lowerBound)
            for part in [before, first..<(first + after.count)] where !part.isEmpty {
                head.applyVector(input, into: output, rows: part, band: index)
                let mirrored = part.clamped(to: sources)
                guard !mirrored.isEmpty else { continue }
                output.withUnsafeMutableBytes { pixels in
                    let base = pixels.baseAddress!
                    for y in mirrored {
                        (base + (mirror.sum - y) * output.stride).copyMemory(from: base + y * output.stride, byteCount: output.rowBytes)
                    }
                }
            }
        }
    }

    /// Head then per-pixel steps for a few rows, in place on the target.
    private func runChunk(_ input: Mat, _ target: Mat, _ rows: Range<Int>, band: Int) {
        var steps = colorKernels[...]
        if let head {
            head.applyVector(input, into: target, rows: rows, band: band)
        } else if let first = steps.popFirst() {
            first.applyVector(input, into: target, rows: rows, band: band)
        } else {
            copyRows(input, target, rows)
        }
        for k in steps { k.applyVector(target, into: target, rows: rows, band: band) }
    }

    /// Per-pixel steps into the band's scratch rows in the input's format, then the
    /// conversion into the output.
    private func runConversion(_ conversion: any OperationKernel, _ input: Mat, _ output: Mat, _ band: Range<Int>,
                               index: Int, scratch: Mat) {
        if colorKernels.isEmpty {
            // The conversion alone: the whole band in one call on the images themselves.
            // Views per chunk cost each one a retain and a release of the images' shared
            // storage, and two workers then contend for its reference count.
            conversion.applyVector(input, into: output, rows: band, band: index)
            return
        }
        let chunk = RecipeRenderer.chunkRows
        var y = band.lowerBound
        while y < band.upperBound {
            let n = min(chunk, band.upperBound - y)
            let inRows = input.view(x: 0, y: y, width: input.width, height: n)
            let outRows = output.view(x: 0, y: y, width: output.width, height: n)
            let tmp = scratch.view(x: 0, y: 0, width: input.width, height: n)
            colorKernels[0].applyVector(inRows, into: tmp, rows: 0..<n, band: index)
            for k in colorKernels.dropFirst() { k.applyVector(tmp, into: tmp, rows: 0..<n, band: index) }
            conversion.applyVector(tmp, into: outRows, rows: 0..<n, band: index)
            y += n
        }
    }

    private func copyRows(_ input: Mat, _ output: Mat, _ rows: Range<Int>) {
        forEachRowPair(input, output, rows: rows) { s, d in d.update(from: s, count: input.rowBytes) }
    }
}
