import FramelabFilters

/// The evaluator with the kernels of the instruction-set level filters made now use
/// (`KernelLevel.current`: the best this CPU has, or `FRAMELAB_ISA`'s). Kept apart so the
/// evaluator itself builds without FramelabFilters (the cascade fuzz target passes the
/// portable kernels).
extension HaarCascadeEvaluator {
    public convenience init(cascade: HaarCascade) {
        self.init(cascade: cascade, kernels: KernelLevel.current.table ?? .portable)
    }

    public convenience init(path: String) throws {
        self.init(cascade: try HaarCascade(contentsOf: path))
    }
}
