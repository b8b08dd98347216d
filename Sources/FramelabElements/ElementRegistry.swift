import FramelabCore

/// Elements of one kind by name, built-in or from a plugin, under one naming scheme.
/// `FilterRegistry` and `DetectorRegistry` are this registry with their kind's own
/// instantiation on top.
public struct ElementRegistry<Descriptor: ElementDescriptor>: Sendable {
    public private(set) var descriptors: [Descriptor] = []
    /// What an unknown name's error adds after the known names: where else to look. A
    /// registry with plugins in it says which folders were searched.
    public var unknownNameHint = "a plugin's? give its file or folder with --plugin-path: the working folder is not searched"

    public init() {}

    /// A registry of Framelab's own elements, whose names are unique by construction (a
    /// clash here is a programming error, not something a user can cause).
    public init(builtIns: [Descriptor]) {
        for d in builtIns {
            do { try register(d) } catch { preconditionFailure("built-in \(Descriptor.kind.label(d.name)) is defined twice") }
        }
    }

    /// Adds an element; a name already taken is an error naming both origins (`ElementNameClash`).
    public mutating func register(_ descriptor: Descriptor) throws {
        if let existing = self[descriptor.name] {
            throw FramelabError(.badInput, ElementNameClash.message(descriptor.name, origins: [existing.origin, descriptor.origin]))
        }
        descriptors.append(descriptor)
    }

    public subscript(name: String) -> Descriptor? { descriptors.first { $0.name == name } }

    public var names: [String] { descriptors.map(\.name) }

    /// The descriptor for a spec's name; an unknown name is an error listing the known ones.
    public func descriptor(for spec: ElementSpec) throws -> Descriptor {
        guard let descriptor = self[spec.name] else {
            throw FramelabError(.badInput, "unknown \(Descriptor.kind.label(spec.name)) (known: \(names.sorted().joined(separator: ", ")); "
                                + "\(unknownNameHint))")
        }
        return descriptor
    }
}
