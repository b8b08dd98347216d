import FramelabCore

/// One configured filter, ready to process frames.
///
/// `process` returns the output image. A filter may reuse memory it owns across calls so
/// steady state allocates nothing; `outputLifetime` says how long an output stays valid.
public protocol FrameFilter: AnyObject {
    /// The name the registry knows it by.
    var name: String { get }
    func process(_ input: Mat) throws -> Mat
    /// The format this filter produces for an input format (nil: not accepted).
    func outputFormat(for input: PixelFormat) -> PixelFormat?
    /// How long the images `process` returns stay valid.
    var outputLifetime: OutputLifetime { get }
}

/// How long a filter's output image stays valid.
public enum OutputLifetime: Sendable {
    /// Until the filter's next `process` call: a caller that keeps the output longer (a
    /// pipeline with several frames in flight) must `clone()` it.
    case untilNextCall
    /// As long as the caller holds it (the filter reuses a buffer only once nobody else
    /// holds it; see `OutputBuffer`).
    case whileHeld
}

extension FrameFilter {
    /// The safe assumption for filters that do not say (plugins hand back their own memory).
    public var outputLifetime: OutputLifetime { .untilNextCall }
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
    /// For built-ins: the operation as data, which every path implements and recipes fuse.
    let operation: (@Sendable (ParameterValues) throws -> PixelOperation)?

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
        operation = nil
    }

    /// A built-in described by its operation; instances exist for every `FilterPath`.
    init(builtIn name: String, summary: String, parameters: [ParameterSpec] = [],
         operation: @escaping @Sendable (ParameterValues) throws -> PixelOperation, formats: [PixelFormat]) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.formats = formats
        origin = "built-in"
        version = FramelabVersion.string
        self.operation = operation
        factory = { values in BuiltInFilter(name: name, operation: try operation(values), path: .default) }
    }

    /// True for built-ins, which run on the scalar, SIMD and recipe paths (and OpenCV where
    /// it has the operation).
    public var hasPaths: Bool { operation != nil }

    /// The paths this filter runs on with its default parameters (empty for plugins).
    public var paths: [FilterPath] {
        guard let operation, let made = try? operation(ParameterValues(defaultValues, element: name)) else { return [] }
        return FilterPath.allCases.filter { $0 != .opencv || made.missingOpenCVReason == nil }
    }

    var defaultValues: [String: ParameterValue] {
        Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) })
    }

    /// Checks the spec's arguments against the parameters and creates an instance on
    /// `path` (plugins have one implementation and ignore it).
    public func instantiate(_ spec: ElementSpec, path: FilterPath = .default, threads: Int = 1) throws -> any FrameFilter {
        let values = try parameterValues(spec)
        if let operation {
            let made = try operation(values)
            if path == .opencv, let why = made.missingOpenCVReason {
                throw FramelabError(.unsupported, "filter '\(name)' has no OpenCV reference path (\(why))")
            }
            return BuiltInFilter(name: name, operation: made, path: path, threads: threads)
        }
        return try factory(values)
    }

    /// The operation a built-in performs with these arguments (nil for plugins).
    public func makeOperation(_ spec: ElementSpec) throws -> PixelOperation? {
        guard let operation else { return nil }
        return try operation(parameterValues(spec))
    }

    /// The spec's arguments checked against the parameters, defaults filled in.
    func parameterValues(_ spec: ElementSpec) throws -> ParameterValues {
        var values: [String: ParameterValue] = [:]
        for p in parameters { values[p.name] = p.defaultValue }
        for (key, text) in spec.arguments {
            guard let p = parameters.first(where: { $0.name == key }) else {
                let known = parameters.isEmpty ? "it takes none" : "known: " + parameters.map(\.name).joined(separator: ", ")
                throw FramelabError(.badInput, "filter '\(name)': unknown parameter '\(key)' (\(known))")
            }
            values[key] = try p.parse(text, element: name)
        }
        return ParameterValues(values, element: name)
    }
}
