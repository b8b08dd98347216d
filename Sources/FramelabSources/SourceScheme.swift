import FramelabPipeline

/// One kind of source as `--source` knows it: its scheme (the text before the first ':'),
/// the line of help `framelab run --help` prints for it, and how it opens.
public struct SourceScheme: Sendable {
    public let name: String
    public let usage: String
    public let open: @Sendable (SourceSpec) throws -> any FrameSource

    public init(_ name: String, usage: String, open: @escaping @Sendable (SourceSpec) throws -> any FrameSource) {
        self.name = name
        self.usage = usage
        self.open = open
    }

    /// The spec's form without its options, for one-line lists: `video:PATH[?…]`.
    public var synopsis: String {
        let form = usage.firstRange(of: " — ").map { usage[..<$0.lowerBound] } ?? usage[...]
        guard let options = form.firstRange(of: "[?") else { return String(form) }
        return form[..<options.lowerBound] + "[?…]"
    }
}
