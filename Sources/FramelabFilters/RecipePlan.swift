import FramelabCore

/// A recipe fused into passes. Each pass reads its input once and writes its output once:
/// an optional head (a resampling, neighbourhood, generator or compositing operation)
/// followed by per-pixel steps done in place on the rows just written, and optionally a
/// per-pixel step that changes the format (luma) at the end. Full-frame intermediates
/// exist only between passes, where fusion is impossible (for example a blur after a
/// colour change needs the changed neighbours). What may fuse is what each operation
/// declares (`FilterOperation.fusion`).
public struct RecipePlan: Sendable {
    public struct Pass: Sendable {
        /// The operation that makes the pass's rows from its input (nil: the input is read).
        public var head: (any FilterOperation)?
        /// Per-pixel steps after fusion, each named by the filters it came from.
        public var colors: [(names: [String], step: any PerPixelOperation)]
        /// A last per-pixel step into another format (luma into gray8).
        public var conversion: (any PerPixelOperation)?
        public var names: [String]
        public var input: ImageShape
        public var output: ImageShape
    }

    public private(set) var passes: [Pass] = []
    public let input: ImageShape
    public var output: ImageShape { passes.last?.output ?? input }

    init(steps: [Recipe.Step], format: PixelFormat, width: Int, height: Int) throws {
        input = (format, width, height)
        var shape = input
        var current: Pass?
        func startPass(_ head: (any FilterOperation)?, _ names: [String], out: ImageShape) {
            if let current { passes.append(current) }
            current = Pass(head: head, colors: [], conversion: nil, names: names, input: shape, output: out)
        }
        for step in steps {
            guard let out = step.operation.outputShape(format: shape.format, width: shape.width, height: shape.height) else {
                let accepted = step.operation.acceptedFormats.map(\.name).joined(separator: ", ")
                throw FramelabError(.unsupported, "recipe step '\(step.name)' does not accept \(shape.format) (accepts \(accepted))")
            }
            switch step.operation.fusion {
            case .perPixel(let pixel):
                // After a conversion the pass's format is done: a new pass reads its output.
                if current == nil || current!.conversion != nil { startPass(nil, [], out: out) }
                current!.names.append(step.name)
                current!.output = out
                if !pixel.endsPass {
                    Self.fuse(pixel, named: step.name, into: &current!.colors)
                } else {
                    current!.conversion = pixel
                }
            case .resampling(let resampling):
                let warp = resampling.warp(width: shape.width, height: shape.height)
                // Two resamplings in a row become one, when nothing happened in between.
                if var pass = current, let first = pass.head as? WarpOperation, pass.colors.isEmpty, pass.conversion == nil {
                    pass.head = WarpOperation(fixed: warp.after(first.warp(width: pass.input.width, height: pass.input.height)))
                    pass.names.append(step.name)
                    pass.output = out
                    current = pass
                } else {
                    startPass(WarpOperation(fixed: warp), [step.name], out: out)
                }
            case .neighbourhood, .generator, .compositing:
                startPass(step.operation, [step.name], out: out)
            }
            shape = out
        }
        if let current { passes.append(current) }
    }

    /// Appends a per-pixel step, composing it with the last one where they compose
    /// (matrices, curves).
    static func fuse(_ step: any PerPixelOperation, named name: String,
                     into colors: inout [(names: [String], step: any PerPixelOperation)]) {
        if let last = colors.last, let composed = step.composed(after: last.step) {
            colors[colors.count - 1] = (last.names + [name], composed)
            return
        }
        colors.append(([name], step))
    }

    public func explain(threads: Int) -> String {
        var lines = ["recipe: \(passes.reduce(0) { $0 + $1.names.count }) operation(s) in \(passes.count) pass(es), "
                     + "\(Self.shapeText(input)) → \(Self.shapeText(output)), rows split across \(threads) thread(s)"]
        for (i, pass) in passes.enumerated() {
            lines.append("  pass \(i + 1) [\(pass.names.joined(separator: ", "))]: " + stepLabels(pass).joined(separator: " → "))
            lines += sharedLoops(pass).map { "    " + $0 }
            let copied = copiedRows(pass)
            if copied > 0 {
                lines.append("    \(copied) of \(pass.output.height) rows mirror rows above them about the centre: copied, not computed "
                             + "(the threads share out the other \(pass.output.height - copied))")
            }
        }
        if passes.count > 1 { lines.append("  \(passes.count - 1) full-frame intermediate(s) between passes") }
        return lines.joined(separator: "\n")
    }

    /// What `pass` does per row, in order: read or make its rows, each fused step, write.
    public func stepLabels(_ pass: Pass) -> [String] {
        var parts: [String] = []
        if let warp = pass.head as? WarpOperation {
            parts.append(warp.planLabel(width: pass.input.width, height: pass.input.height))
        } else if let head = pass.head {
            parts.append(head.planLabel)
        } else {
            parts.append("read \(Self.shapeText(pass.input))")
        }
        for (names, step) in pass.colors { parts.append("\(step.planLabel) (\(names.joined(separator: " ∘ ")))") }
        if let conversion = pass.conversion { parts.append(conversion.planLabel) }
        parts.append("write \(Self.shapeText(pass.output))")
        return parts
    }

    /// Which neighbouring steps of `pass` share one loop, as CompiledPass decides.
    public func sharedLoops(_ pass: Pass) -> [String] {
        zip(pass.colors, pass.colors.dropFirst()).compactMap { first, next in
            first.step.sharedLoop(with: next.step, format: pass.input.format)
        }
    }

    /// How many of `pass`'s output rows repeat rows above them (a lone radial gradient's
    /// mirror about its centre), which the renderer copies instead of computing
    /// (`CompiledPass.runMirrored`, under the same conditions); 0 for other passes.
    public func copiedRows(_ pass: Pass) -> Int {
        guard pass.colors.isEmpty, pass.conversion == nil, let head = pass.head as? any PlainOperation,
              let mirror = head.rowMirror(height: pass.output.height) else { return 0 }
        return mirror.copies.count
    }

    static func shapeText(_ s: ImageShape) -> String { "\(s.format) \(s.width)x\(s.height)" }
}

/// A number with at most four decimals, without trailing zeros.
func short(_ v: Double) -> String {
    let r = (v * 10_000).rounded() / 10_000
    return r == r.rounded() ? String(Int(r)) : String(r)
}
