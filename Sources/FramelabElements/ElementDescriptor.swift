import FramelabCore

/// What a registry knows of an element, whatever its kind: the name users type, a
/// one-line summary, the parameters it takes and where it comes from. Built-in and plugin
/// elements are described alike; `origin` tells them apart.
public protocol ElementDescriptor: Sendable {
    /// The kind every descriptor of this type describes; errors start with it.
    static var kind: ElementKind { get }
    var name: String { get }
    var summary: String { get }
    var parameters: [ParameterSpec] { get }
    /// `builtInOrigin`, or the path of the plugin library that provides the element.
    var origin: String { get }
}

extension ElementDescriptor {
    /// The `origin` of Framelab's own elements.
    public static var builtInOrigin: String { "built-in" }

    public var isBuiltIn: Bool { origin == Self.builtInOrigin }

    /// The spec's `key=value` arguments checked against `parameters`, defaults filled in.
    /// Errors name the element (`detector 'x': …`) and, for a plugin, the file that
    /// declared the parameters.
    public func parameterValues(_ spec: ElementSpec) throws -> ParameterValues {
        do {
            return try ParameterValues(checking: spec, against: parameters, kind: Self.kind)
        } catch let error as FramelabError where !isBuiltIn {
            throw FramelabError(error.kind, "\(origin): \(error.message)")
        }
    }
}
