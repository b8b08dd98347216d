/// A filter element written in Swift: declare what it is, create from values, process.
public protocol FramelabFilterPlugin: AnyObject {
    static var name: String { get }
    static var version: String { get }
    static var summary: String { get }
    static var formats: [PluginPixelFormat] { get }
    static var parameters: [PluginParameter] { get }
    /// The output format for an input format; by default the same as the input.
    static func outputFormat(for input: PluginPixelFormat) -> PluginPixelFormat?
    init(_ values: PluginValues) throws
    /// Writes the result for `input` into `output` (negotiated format, same size).
    func process(_ input: PluginImage, into output: PluginImage) throws
    /// Takes parameter `name`'s new value (in `values`, checked by the host) between frames
    /// (ABI 2's set_parameter). Return false, the default, to have the host re-create the
    /// instance with the new values instead.
    func update(_ name: String, _ values: PluginValues) throws -> Bool
}

extension FramelabFilterPlugin {
    public static var parameters: [PluginParameter] { [] }
    public func update(_ name: String, _ values: PluginValues) throws -> Bool { false }
    public static func outputFormat(for input: PluginPixelFormat) -> PluginPixelFormat? { input }
}

/// A detector element written in Swift.
public protocol FramelabDetectorPlugin: AnyObject {
    static var name: String { get }
    static var version: String { get }
    static var summary: String { get }
    static var formats: [PluginPixelFormat] { get }
    static var parameters: [PluginParameter] { get }
    init(_ values: PluginValues) throws
    func detect(_ input: PluginImage) throws -> [PluginDetection]
    /// As `FramelabFilterPlugin.update`.
    func update(_ name: String, _ values: PluginValues) throws -> Bool
}

extension FramelabDetectorPlugin {
    public static var parameters: [PluginParameter] { [] }
    public func update(_ name: String, _ values: PluginValues) throws -> Bool { false }
}
