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

    /// Looks up the spec's name and instantiates it with its arguments.
    public func instantiate(_ spec: ElementSpec) throws -> any FrameFilter {
        guard let descriptor = self[spec.name] else {
            let names = descriptors.map(\.name).sorted().joined(separator: ", ")
            throw FramelabError(.badInput, "unknown filter '\(spec.name)' (known: \(names))")
        }
        return try descriptor.instantiate(spec)
    }
}
