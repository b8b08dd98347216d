/// What an element is: the two kinds the registries (and the plugin ABI) know. Errors
/// about an element start with its kind and name: "filter 'sepia': …".
public enum ElementKind: String, Sendable, Codable, CustomStringConvertible {
    case filter
    case detector

    public var description: String { rawValue }

    /// How errors name one element of this kind: `filter 'sepia'`.
    public func label(_ name: String) -> String { "\(rawValue) '\(name)'" }
}
