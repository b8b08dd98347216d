import FramelabCore

/// A lazy description of what to do to an image, like a CIImage: building one does no
/// pixel work. `plan` fuses neighbouring operations (colour matrices compose, curves fold
/// into one table, warps into one resampling); `RecipeRenderer` runs the plan with rows
/// split across threads; `explain` shows the fused plan.
public struct Recipe: Sendable {
    public struct Step: Sendable {
        public let name: String
        public let operation: any FilterOperation
    }

    public private(set) var steps: [Step] = []

    public init() {}

    public init(_ steps: [(name: String, operation: any FilterOperation)]) {
        self.steps = steps.map { Step(name: $0.name, operation: $0.operation) }
    }

    /// This recipe with one more operation at the end (no pixel work).
    public func appending(_ name: String, _ operation: any FilterOperation) -> Recipe {
        var copy = self
        copy.steps.append(Step(name: name, operation: operation))
        return copy
    }

    /// The fused plan for an input of this format and size; errors name the step whose
    /// input format it cannot take.
    public func plan(format: PixelFormat, width: Int, height: Int) throws -> RecipePlan {
        try RecipePlan(steps: steps, format: format, width: width, height: height)
    }

    /// The fused plan as text: one line per pass, listing what each pass does per row.
    public func explain(format: PixelFormat, width: Int, height: Int, threads: Int = 1) throws -> String {
        try plan(format: format, width: width, height: height).explain(threads: threads)
    }
}
