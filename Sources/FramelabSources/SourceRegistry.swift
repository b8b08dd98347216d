import FramelabCore
import FramelabPipeline

/// The schemes `--source` opens. A source type declares its `SourceScheme` in its own
/// file; adding a source is that file plus one line in `builtIns`.
public struct SourceRegistry: Sendable {
    /// In the order `--help` lists them.
    public private(set) var schemes: [SourceScheme]

    public init(_ schemes: [SourceScheme]) { self.schemes = schemes }

    public static let builtIns = SourceRegistry([
        ImageSource.scheme,
        ImageFolderSource.scheme,
        VideoSource.scheme,
        SyntheticSource.scheme,
        CameraSource.scheme,
        DatasetSource.scheme,
    ])

    public var names: [String] { schemes.map(\.name) }

    /// Adds a scheme; one already known is a programming error.
    public mutating func register(_ scheme: SourceScheme) {
        precondition(!names.contains(scheme.name), "source scheme '\(scheme.name)' registered twice")
        schemes.append(scheme)
    }

    /// Opens a source from its spec text; errors quote the text and list the schemes.
    public func open(_ text: String) throws -> any FrameSource {
        let spec = try SourceSpec(parsing: text, knownSchemes: names)
        guard let scheme = schemes.first(where: { $0.name == spec.scheme }) else {
            throw FramelabError(.badInput,
                "source '\(text)': unknown scheme '\(spec.scheme)' (schemes: \(names.joined(separator: ", ")))")
        }
        return try scheme.open(spec)
    }
}
