import FramelabCore

/// A built-in filter on one path: the operation, run eagerly (scalar, SIMD, OpenCV) into a
/// reused output buffer, or as a one-step recipe.
final class BuiltInFilter: FrameFilter {
    let name: String
    let operation: any FilterOperation
    let path: FilterPath
    private let runner: OperationRunner?
    private let renderer: RecipeRenderer?
    private var output = OutputBuffer()
    var outputLifetime: OutputLifetime { .whileHeld }

    init(name: String, operation: any FilterOperation, path: FilterPath, threads: Int = 1) {
        self.name = name
        self.operation = operation
        self.path = path
        if path == .recipe {
            runner = nil
            renderer = RecipeRenderer(Recipe([(name, operation)]), threads: threads)
        } else {
            runner = OperationRunner(name: name, operation: operation, path: path)
            renderer = nil
        }
    }

    func outputFormat(for input: PixelFormat) -> PixelFormat? {
        operation.outputShape(format: input, width: 1, height: 1)?.format
    }

    func process(_ input: Mat) throws -> Mat {
        guard let shape = operation.outputShape(format: input.format, width: input.width, height: input.height) else {
            let accepted = operation.acceptedFormats.map(\.name).joined(separator: ", ")
            throw FramelabError(.unsupported, "filter '\(name)' does not accept \(input.format) (accepts \(accepted))")
        }
        let out = output.image(format: shape.format, width: shape.width, height: shape.height)
        if let renderer {
            try renderer.render(input, into: out)
        } else {
            try runner!.apply(input, into: out)
        }
        return out
    }
}

/// Several built-in filters fused into one recipe, run as one stage.
public final class RecipeFilter: FrameFilter {
    public let name: String
    public let renderer: RecipeRenderer
    private var output = OutputBuffer()
    public var outputLifetime: OutputLifetime { .whileHeld }

    public init(_ recipe: Recipe, threads: Int = 1) {
        name = recipe.steps.map(\.name).joined(separator: "+")
        renderer = RecipeRenderer(recipe, threads: threads)
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? {
        var format = input
        for step in renderer.recipe.steps {
            guard let next = step.operation.outputShape(format: format, width: 1, height: 1)?.format else { return nil }
            format = next
        }
        return format
    }

    public func process(_ input: Mat) throws -> Mat {
        let shape = try renderer.outputShape(for: input)
        let out = output.image(format: shape.format, width: shape.width, height: shape.height)
        try renderer.render(input, into: out)
        return out
    }
}
