import FramelabCore
import FramelabElements

/// What an element is: the two kinds the ABI knows, the registries' own `ElementKind`.
public typealias PluginElementKind = ElementKind

/// A validated, Swift-side copy of one element's description.
public struct PluginElementInfo: Sendable {
    public let kind: PluginElementKind
    public let name: String
    public let version: String
    public let summary: String
    public let formats: [PixelFormat]
    /// What each accepted format becomes (asked of the plugin's output_format once, when it
    /// is described); a format missing here is one output_format rejects.
    public let outputFormats: [PixelFormat: PixelFormat]
    public let parameters: [ParameterSpec]
    /// The plugin file that provides it.
    public let path: String
    /// The ABI version the plugin was built against, "major.minor".
    public let abiVersion: String
}
