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
    public func outputShape(for input: Mat) throws -> (format: PixelFormat, width: Int, height: Int) {
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
    private let colorKernels: [RowKernel]
    private let blur: GaussianBlur?
    /// The blur's working memory, one per band, kept across frames.
    let blurScratch = ScratchPool()
    /// When the pass ends in luma: a few rows in the input's format per band, where the
    /// colour steps write before luma reads them (made on the first frame, then kept).
    private(set) var lumaScratch: [Mat] = []
    private let layers: [Mat]
    private let kernels: KernelTable

    init(plan: RecipePlan.Pass, isLast: Bool, kernels: KernelTable) {
        self.plan = plan
        self.kernels = kernels
        let out = plan.output
        intermediate = isLast ? nil : Mat(format: out.format, width: out.width, height: out.height)
        colorKernels = RowKernel.compile(plan.colors.map(\.step), format: plan.input.format, kernels: kernels)
        if case .blur(let spec) = plan.head { blur = GaussianBlur(sigma: spec.sigma) } else { blur = nil }
        if case .composite(let stage) = plan.head {
            let like = Mat(format: plan.input.format, width: plan.input.width, height: plan.input.height)
            layers = CompositeLayers.make(stage, like: like)
        } else {
            layers = []
        }
    }

    func run(_ input: Mat, into output: Mat, threads: Int) {
        // Colour steps and the head write into `colorTarget`: the output itself, or, when
        // the pass ends in luma, a same-format scratch band per thread.
        let rows = plan.luma ? input.height : output.height
        let bands = RowParallel.bandCount(rows: rows, threads: threads)
        blurScratch.prepare(bands: bands)
        if plan.luma {
            while lumaScratch.count < bands {
                lumaScratch.append(Mat(format: input.format, width: input.width, height: RecipeRenderer.chunkRows))
            }
        }
        RowParallel.runBands(rows: rows, threads: threads) { index, band in
            if plan.luma {
                runWithLuma(input, output, band, scratch: lumaScratch[index])
                return
            }
            if case .blur = plan.head {
                // The blur keeps its own ring of rows across the band; colour steps follow it.
                blur!.applySIMD(input, into: output, rows: band, scratch: blurScratch.scratch(band: index), kernels: kernels)
                for k in colorKernels { k.apply(output, output, band) }
                return
            }
            if case .none = plan.head, colorKernels.count == 1 {
                // One step reading the input: nothing to keep in cache for a next step, so
                // the whole band in one call (per-chunk calls cost about 1 µs each).
                colorKernels[0].apply(input, output, band)
                return
            }
            let rowsPerChunk = RecipeRenderer.chunkRows(rowBytes: output.rowBytes)
            var y = band.lowerBound
            while y < band.upperBound {
                let chunk = y..<min(y + rowsPerChunk, band.upperBound)
                head(input, output, chunk)
                y = chunk.upperBound
            }
        }
    }

    /// Head then colour steps for a few rows, in place on the output.
    private func head(_ input: Mat, _ output: Mat, _ rows: Range<Int>) {
        switch plan.head {
        case .none:
            if let first = colorKernels.first {
                first.apply(input, output, rows)
                for k in colorKernels.dropFirst() { k.apply(output, output, rows) }
                return
            }
            copyRows(input, output, rows)
        case .warp(let warp): WarpKernel.applyFast(warp, input, into: output, rows: rows)
        case .generate(let g): g.renderFast(into: output, rows: rows, kernels: kernels)
        case .composite(let stage):
            switch stage {
            case .sourceOver: Compositing.sourceOver(top: layers[0], bottom: input, into: output, rows: rows, kernels: kernels)
            case .blendWithMask:
                Compositing.blendWithMask(foreground: input, background: layers[0], mask: layers[1], into: output, rows: rows,
                                          kernels: kernels)
            }
        case .blur: preconditionFailure("blur bands are handled in run")
        }
        for k in colorKernels { k.apply(output, output, rows) }
    }

    /// Colour steps into the band's scratch rows in the input's format, then luma into the output.
    private func runWithLuma(_ input: Mat, _ output: Mat, _ band: Range<Int>, scratch: Mat) {
        let chunk = RecipeRenderer.chunkRows
        var y = band.lowerBound
        while y < band.upperBound {
            let n = min(chunk, band.upperBound - y)
            let inRows = input.view(x: 0, y: y, width: input.width, height: n)
            let outRows = output.view(x: 0, y: y, width: output.width, height: n)
            if colorKernels.isEmpty && input.format == .gray8 {
                copyRows(inRows, outRows, 0..<n)
            } else if colorKernels.isEmpty {
                Luma.applySIMD(inRows, into: outRows, rows: 0..<n, kernels: kernels)
            } else {
                let tmp = scratch.view(x: 0, y: 0, width: input.width, height: n)
                colorKernels[0].apply(inRows, tmp, 0..<n)
                for k in colorKernels.dropFirst() { k.apply(tmp, tmp, 0..<n) }
                Luma.applySIMD(tmp, into: outRows, rows: 0..<n, kernels: kernels)
            }
            y += n
        }
    }

    private func copyRows(_ input: Mat, _ output: Mat, _ rows: Range<Int>) {
        forEachRowPair(input, output, rows: rows) { s, d in d.update(from: s, count: input.rowBytes) }
    }
}

/// A colour step (or a matrix and the curve after it, fused) with its fast form computed once.
struct RowKernel {
    private enum Kind {
        case matrix(ColorMatrixKernel), curves(ChannelCurves, PairCurveTables), vibrance(Vibrance)
        case matrixThenCurves(MatrixCurveKernel)
    }
    private let kind: Kind
    private let kernels: KernelTable

    init(_ step: ColorStep, kernels: KernelTable) {
        switch step {
        case .matrix(let m): kind = .matrix(ColorMatrixKernel(m, kernels: kernels))
        case .curves(let c): kind = .curves(c, PairCurveTables(c))
        case .vibrance(let a): kind = .vibrance(Vibrance(amount: a))
        }
        self.kernels = kernels
    }

    private init(_ kind: Kind, kernels: KernelTable) {
        self.kind = kind
        self.kernels = kernels
    }

    /// The kernels for a pass's colour steps on `format`: a matrix directly followed by
    /// curves becomes one loop (`MatrixCurveKernel`) where that kernel takes the format.
    static func compile(_ steps: [ColorStep], format: PixelFormat, kernels: KernelTable) -> [RowKernel] {
        var compiled: [RowKernel] = []
        var i = 0
        while i < steps.count {
            if i + 1 < steps.count, case .matrix(let m) = steps[i], case .curves(let c) = steps[i + 1],
               MatrixCurveKernel.fuses(m, format: format) {
                let fused = MatrixCurveKernel(matrix: ColorMatrixKernel(m, kernels: kernels), curves: c)
                compiled.append(RowKernel(.matrixThenCurves(fused), kernels: kernels))
                i += 2
            } else {
                compiled.append(RowKernel(steps[i], kernels: kernels))
                i += 1
            }
        }
        return compiled
    }

    func apply(_ input: Mat, _ output: Mat, _ rows: Range<Int>) {
        switch kind {
        case .matrix(let k): k.apply(input, into: output, rows: rows)
        case .curves(let c, let pairs):
            // BGRA through pair tables (two lookups a pixel); other formats through byte tables.
            if input.format == .bgra8 {
                pairs.apply(input, into: output, rows: rows, kernels: kernels)
            } else {
                c.applyTables(input, into: output, rows: rows)
            }
        case .vibrance(let v): v.applySIMD(input, into: output, rows: rows, kernels: kernels)
        case .matrixThenCurves(let k): k.apply(input, into: output, rows: rows)
        }
    }
}
