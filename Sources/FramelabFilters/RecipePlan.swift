import FramelabCore

/// A recipe fused into passes. Each pass reads its input once and writes its output once:
/// an optional head (a resampling, blur, generator or composite) followed by colour steps
/// done in place on the rows just written, and optionally luma at the end. Full-frame
/// intermediates exist only between passes, where fusion is impossible (for example a
/// blur after a colour change needs the changed neighbours).
public struct RecipePlan: Sendable {
    public enum Head: Sendable {
        case none
        case warp(Warp)
        case blur(GaussianBlurSpec)
        case generate(Generator)
        case composite(CompositeStage)
    }

    public struct Pass: Sendable {
        public var head: Head
        /// Colour steps after fusion, each named by the filters it came from.
        public var colors: [(names: [String], step: ColorStep)]
        /// Ends with luma into gray8.
        public var luma: Bool
        public var names: [String]
        public var input: (format: PixelFormat, width: Int, height: Int)
        public var output: (format: PixelFormat, width: Int, height: Int)
    }

    public private(set) var passes: [Pass] = []
    public let input: (format: PixelFormat, width: Int, height: Int)
    public var output: (format: PixelFormat, width: Int, height: Int) { passes.last?.output ?? input }

    init(steps: [Recipe.Step], format: PixelFormat, width: Int, height: Int) throws {
        input = (format, width, height)
        var shape = input
        var current: Pass?
        func startPass(_ head: Head, _ name: String, out: (format: PixelFormat, width: Int, height: Int)) {
            if let current { passes.append(current) }
            current = Pass(head: head, colors: [], luma: false, names: [name], input: shape, output: out)
        }
        for step in steps {
            guard let out = step.operation.outputShape(format: shape.format, width: shape.width, height: shape.height) else {
                let accepted = step.operation.acceptedFormats.map(\.name).joined(separator: ", ")
                throw FramelabError(.unsupported, "recipe step '\(step.name)' does not accept \(shape.format) (accepts \(accepted))")
            }
            switch step.operation {
            case .color(let color):
                if current == nil || current!.luma { startPass(.none, step.name, out: out); current!.names = [] }
                current!.names.append(step.name)
                current!.output = out
                Self.fuse(color, named: step.name, into: &current!.colors)
            case .luma:
                if current == nil || current!.luma { startPass(.none, step.name, out: out); current!.names = [] }
                current!.names.append(step.name)
                current!.luma = true
                current!.output = out
            case .warp, .sizedWarp:
                let warp = step.operation.warp(width: shape.width, height: shape.height)!
                // Two warps in a row become one resampling, when nothing happened in between.
                if var pass = current, case .warp(let first) = pass.head, pass.colors.isEmpty, !pass.luma {
                    pass.head = .warp(warp.after(first))
                    pass.names.append(step.name)
                    pass.output = out
                    current = pass
                } else {
                    startPass(.warp(warp), step.name, out: out)
                }
            case .blur(let sigma): startPass(.blur(GaussianBlurSpec(sigma: sigma)), step.name, out: out)
            case .generate(let g): startPass(.generate(g), step.name, out: out)
            case .composite(let c): startPass(.composite(c), step.name, out: out)
            }
            shape = out
        }
        if let current { passes.append(current) }
    }

    /// Appends a colour step, composing it with the last one when both are matrices or both curves.
    static func fuse(_ step: ColorStep, named name: String, into colors: inout [(names: [String], step: ColorStep)]) {
        if let last = colors.last {
            switch (last.step, step) {
            case (.matrix(let first), .matrix(let next)):
                colors[colors.count - 1] = (last.names + [name], .matrix(next.after(first)))
                return
            case (.curves(let first), .curves(let next)):
                colors[colors.count - 1] = (last.names + [name], .curves(next.after(first)))
                return
            default: break
            }
        }
        colors.append(([name], step))
    }

    public func explain(threads: Int) -> String {
        func shape(_ s: (format: PixelFormat, width: Int, height: Int)) -> String { "\(s.format) \(s.width)x\(s.height)" }
        var lines = ["recipe: \(passes.reduce(0) { $0 + $1.names.count }) operation(s) in \(passes.count) pass(es), "
                     + "\(shape(input)) → \(shape(output)), rows split across \(threads) thread(s)"]
        for (i, pass) in passes.enumerated() {
            var parts: [String] = []
            switch pass.head {
            case .none: parts.append("read \(shape(pass.input))")
            case .warp(let w):
                let t = w.transform
                let kind = t.isPixelExact ? "exact pixel copy" : "bilinear"
                let coefficients = [t.a, t.b, t.tx, t.c, t.d, t.ty].map { short($0) }
                parts.append("one resampling (\(kind)) [\(coefficients[0...2].joined(separator: " ")); \(coefficients[3...5].joined(separator: " "))]")
            case .blur(let b): parts.append("gaussian blur σ=\(b.sigma) (separable)")
            case .generate: parts.append("generate")
            case .composite(let c):
                if case .sourceOver = c { parts.append("composite source-over") } else { parts.append("composite blend-with-mask") }
            }
            for (names, step) in pass.colors {
                let label = names.joined(separator: " ∘ ")
                switch step {
                case .matrix: parts.append("colour matrix (\(label))")
                case .curves: parts.append("lookup table (\(label))")
                case .vibrance: parts.append("vibrance (\(label))")
                }
            }
            if pass.luma { parts.append("luma → gray8") }
            parts.append("write \(shape(pass.output))")
            lines.append("  pass \(i + 1) [\(pass.names.joined(separator: ", "))]: " + parts.joined(separator: " → "))
            // Say which neighbours share one loop, as RowKernel.compile decides.
            for (first, next) in zip(pass.colors, pass.colors.dropFirst()) {
                if case .matrix(let m) = first.step, case .curves = next.step, MatrixCurveKernel.fuses(m, format: pass.input.format) {
                    lines.append("    colour matrix and lookup table run in one loop per row "
                                 + "(vector multiply-adds, pair-table lookups \(MatrixCurveKernel.lag) pixels behind)")
                }
            }
        }
        if passes.count > 1 { lines.append("  \(passes.count - 1) full-frame intermediate(s) between passes") }
        return lines.joined(separator: "\n")
    }
}

/// A blur as the plan keeps it (the kernel weights are made when rendering).
/// A number with at most four decimals, without trailing zeros.
func short(_ v: Double) -> String {
    let r = (v * 10_000).rounded() / 10_000
    return r == r.rounded() ? String(Int(r)) : String(r)
}

public struct GaussianBlurSpec: Sendable {
    public let sigma: Double
}
