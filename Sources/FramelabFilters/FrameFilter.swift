import FramelabCore

/// One configured filter, ready to process frames.
///
/// `process` returns the output image. It may reuse a buffer it owns across calls (the
/// returned `Mat` is valid until the next call) so steady state allocates nothing; a
/// caller that keeps an output past that must `clone()` it.
public protocol FrameFilter: AnyObject {
    /// The name the registry knows it by.
    var name: String { get }
    func process(_ input: Mat) throws -> Mat
    /// The format this filter produces for an input format (nil: not accepted).
    func outputFormat(for input: PixelFormat) -> PixelFormat?
}

/// How a filter is described to users and instantiated: name, parameters, formats.
public struct FilterDescriptor: Sendable {
    public let name: String
    public let summary: String
    public let parameters: [ParameterSpec]
    /// Input formats the filter accepts.
    public let formats: [PixelFormat]
    /// "built-in", or the path of the plugin that provides it.
    public let origin: String
    public let version: String
    let factory: @Sendable (ParameterValues) throws -> any FrameFilter

    public init(name: String, summary: String, parameters: [ParameterSpec], formats: [PixelFormat],
                origin: String = "built-in", version: String = FramelabVersion.string,
                factory: @escaping @Sendable (ParameterValues) throws -> any FrameFilter) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.formats = formats
        self.origin = origin
        self.version = version
        self.factory = factory
    }

    /// Checks the spec's arguments against the parameters and creates an instance.
    public func instantiate(_ spec: ElementSpec) throws -> any FrameFilter {
        var values: [String: ParameterValue] = [:]
        for p in parameters { values[p.name] = p.defaultValue }
        for (key, text) in spec.arguments {
            guard let p = parameters.first(where: { $0.name == key }) else {
                let known = parameters.isEmpty ? "it takes none" : "known: " + parameters.map(\.name).joined(separator: ", ")
                throw FramelabError(.badInput, "filter '\(name)': unknown parameter '\(key)' (\(known))")
            }
            values[key] = try p.parse(text, element: name)
        }
        return try factory(ParameterValues(values))
    }
}
