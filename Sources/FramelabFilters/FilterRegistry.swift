import FramelabCore
import FramelabElements

/// Every filter Framelab knows, built-in or from a plugin, under one naming scheme.
public typealias FilterRegistry = ElementRegistry<FilterDescriptor>

extension ElementRegistry where Descriptor == FilterDescriptor {
    /// The registry of built-in filters.
    public static var builtIns: FilterRegistry { FilterRegistry(builtIns: BuiltInFilters.all) }

    /// Looks up the spec's name and instantiates it with its arguments on `path`.
    public func instantiate(_ spec: ElementSpec, path: FilterPath = .default, threads: Int = 1) throws -> any FrameFilter {
        try descriptor(for: spec).instantiate(spec, path: path, threads: threads)
    }

    /// A chain of filters on `path`. On the recipe path, each run of consecutive built-ins
    /// becomes one fused `RecipeFilter`; plugins stay separate stages between them.
    public func instantiateChain(_ specs: [ElementSpec], path: FilterPath, threads: Int = 1) throws -> [any FrameFilter] {
        try chainFactories(specs, path: path, threads: threads).map { try $0() }
    }

    /// The makers of the stages `instantiateChain` builds, one per stage: a pipeline with
    /// several workers calls them once for every worker's own instances.
    public func chainFactories(_ specs: [ElementSpec], path: FilterPath, threads: Int = 1) throws
        -> [@Sendable () throws -> any FrameFilter] {
        var factories: [@Sendable () throws -> any FrameFilter] = []
        var pending = Recipe()
        func flush() {
            if !pending.steps.isEmpty {
                let recipe = pending
                factories.append { RecipeFilter(recipe, threads: threads) }
            }
            pending = Recipe()
        }
        for spec in specs {
            let d = try descriptor(for: spec)
            if path == .recipe, let operation = try d.makeOperation(spec) {
                pending = pending.appending(spec.name, operation)
            } else {
                flush()
                factories.append { try d.instantiate(spec, path: path, threads: threads) }
            }
        }
        flush()
        return factories
    }

    /// A recipe from built-in specs (an error names a spec that is not a built-in).
    public func recipe(_ specs: [ElementSpec]) throws -> Recipe {
        var recipe = Recipe()
        for spec in specs {
            guard let operation = try descriptor(for: spec).makeOperation(spec) else {
                throw FramelabError(.unsupported, "filter '\(spec.name)' is not a built-in and cannot join a recipe")
            }
            recipe = recipe.appending(spec.name, operation)
        }
        return recipe
    }
}
