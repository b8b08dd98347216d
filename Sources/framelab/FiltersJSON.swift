import FramelabFilters

/// `framelab filters --json`: every filter `--filter` accepts, and the names that clash.
struct FilterListJSON: Encodable {
    struct Filter: Encodable {
        let name: String, summary: String, origin: String, version: String
        let formats: [String]
        /// The implementations `--path` picks among; empty for a plugin filter (one implementation).
        let paths: [String]
        let parameters: [ParameterJSON]

        init(_ d: FilterDescriptor) {
            name = d.name
            summary = d.summary
            origin = d.origin
            version = d.version
            formats = d.formats.map(\.name)
            paths = d.hasPaths ? d.paths.map(\.rawValue) : []
            parameters = d.parameters.map(ParameterJSON.init)
        }
    }

    let filters: [Filter]
    let clashes: [String]
}

/// `framelab filters --explain --json`: the fused plan, one entry per pass.
struct RecipePlanJSON: Encodable {
    struct Shape: Encodable {
        let format: String, width: Int, height: Int
        init(_ s: ImageShape) { format = s.format.name; width = s.width; height = s.height }
    }

    struct Pass: Encodable {
        let filters: [String]
        let input: Shape, output: Shape
        /// What the pass does per row, in order (as `--explain` prints it).
        let steps: [String]
        let shared_loops: [String]
        /// Output rows copied from the rows they mirror instead of computed (a lone radial gradient).
        let copied_rows: Int
    }

    let operations: Int
    let threads: Int
    let input: Shape, output: Shape
    let passes: [Pass]
    /// Full-frame images written between passes.
    let intermediates: Int

    init(_ plan: RecipePlan, threads: Int) {
        operations = plan.passes.reduce(0) { $0 + $1.names.count }
        self.threads = threads
        input = Shape(plan.input)
        output = Shape(plan.output)
        passes = plan.passes.map {
            Pass(filters: $0.names, input: Shape($0.input), output: Shape($0.output), steps: plan.stepLabels($0),
                 shared_loops: plan.sharedLoops($0), copied_rows: plan.copiedRows($0))
        }
        intermediates = max(0, plan.passes.count - 1)
    }
}
