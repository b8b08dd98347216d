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
        try chainStages(specs, path: path).map { members -> @Sendable () throws -> any FrameFilter in
            if members.count == 1, case .element(let d, let spec) = members[0] {
                return { try d.instantiate(spec, path: path, threads: threads) }
            }
            var recipe = Recipe()
            for case .fused(let name, let operation) in members { recipe = recipe.appending(name, operation) }
            let fused = recipe
            return { RecipeFilter(fused, threads: threads) }
        }
    }

    /// The stage each spec of a chain runs in: on the recipe path, neighbouring specs with
    /// a recipe operation fuse into one stage.
    public func stageIndices(_ specs: [ElementSpec], path: FilterPath) throws -> [Int] {
        var indices: [Int] = []
        for (stage, members) in try chainStages(specs, path: path).enumerated() {
            indices += Array(repeating: stage, count: members.count)
        }
        return indices
    }

    private enum ChainMember {
        case element(FilterDescriptor, ElementSpec)
        case fused(String, any FilterOperation)
    }

    /// The chain grouped into stages, specs in order.
    private func chainStages(_ specs: [ElementSpec], path: FilterPath) throws -> [[ChainMember]] {
        var stages: [[ChainMember]] = []
        var pending: [ChainMember] = []
        for spec in specs {
            let d = try descriptor(for: spec)
            if path == .recipe, let operation = try d.makeOperation(spec) {
                pending.append(.fused(spec.name, operation))
            } else {
                if !pending.isEmpty { stages.append(pending) }
                pending = []
                stages.append([.element(d, spec)])
            }
        }
        if !pending.isEmpty { stages.append(pending) }
        return stages
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
