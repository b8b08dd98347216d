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
}

extension FramelabFilterPlugin {
    public static var parameters: [PluginParameter] { [] }
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
}

extension FramelabDetectorPlugin {
    public static var parameters: [PluginParameter] { [] }
}
