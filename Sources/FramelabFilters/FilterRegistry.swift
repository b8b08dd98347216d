import FramelabCore

/// Every filter Framelab knows, built-in or from a plugin, under one naming scheme.
public struct FilterRegistry: Sendable {
    public private(set) var descriptors: [FilterDescriptor] = []

    public init() {}

    /// The registry of built-in filters.
    public static var builtIns: FilterRegistry {
        var registry = FilterRegistry()
        for d in BuiltInFilters.all {
            // Built-in names are unique by construction; a clash here is a programming error.
            try! registry.register(d)
        }
        return registry
    }

    /// Adds a filter; a name already taken is an error naming both origins.
    public mutating func register(_ descriptor: FilterDescriptor) throws {
        if let existing = self[descriptor.name] {
            throw FramelabError(.badInput,
                "filter name '\(descriptor.name)' from \(descriptor.origin) clashes with the one from \(existing.origin)")
        }
        descriptors.append(descriptor)
    }

    public subscript(name: String) -> FilterDescriptor? {
        descriptors.first { $0.name == name }
    }

    /// Looks up the spec's name and instantiates it with its arguments on `path`.
    public func instantiate(_ spec: ElementSpec, path: FilterPath = .default, threads: Int = 1) throws -> any FrameFilter {
        try descriptor(for: spec).instantiate(spec, path: path, threads: threads)
    }

    /// The descriptor for a spec's name; an unknown name is an error listing the known ones.
    public func descriptor(for spec: ElementSpec) throws -> FilterDescriptor {
        guard let descriptor = self[spec.name] else {
            let names = descriptors.map(\.name).sorted().joined(separator: ", ")
            throw FramelabError(.badInput, "unknown filter '\(spec.name)' (known: \(names))")
        }
        return descriptor
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
