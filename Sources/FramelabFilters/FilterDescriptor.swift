import FramelabCore
import FramelabElements

/// How a filter is described to users and instantiated: name, parameters, formats.
public struct FilterDescriptor: ElementDescriptor {
    public static let kind = ElementKind.filter

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
    let operation: (@Sendable (ParameterValues) throws -> any FilterOperation)?

    public init(name: String, summary: String, parameters: [ParameterSpec], formats: [PixelFormat],
                origin: String = builtInOrigin, version: String = FramelabVersion.string,
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
         operation: @escaping @Sendable (ParameterValues) throws -> any FilterOperation, formats: [PixelFormat]) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.formats = formats
        origin = Self.builtInOrigin
        version = FramelabVersion.string
        self.operation = operation
        factory = { values in BuiltInFilter(name: name, operation: try operation(values), path: .default) }
    }

    /// True for built-ins, which run on the scalar, SIMD and recipe paths (and OpenCV where
    /// it has the operation).
    public var hasPaths: Bool { operation != nil }

    /// The paths this filter runs on with its default parameters (empty for plugins).
    public var paths: [FilterPath] {
        guard let operation, let made = try? operation(ParameterValues(defaultValues, element: name, kind: .filter)) else { return [] }
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
    public func makeOperation(_ spec: ElementSpec) throws -> (any FilterOperation)? {
        guard let operation else { return nil }
        return try operation(parameterValues(spec))
    }
}
