import FramelabCore

/// Which implementation of a built-in filter runs.
public enum FilterPath: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain loops in Double precision: the definition of correct.
    case scalar
    /// Swift SIMD vector kernels (fixed-point where results stay within tolerance).
    case simd
    /// A lazy `Recipe`: consecutive operations fused into as few passes as possible.
    case recipe
    /// The same operation done by OpenCV through the bridge, for reference.
    case opencv

    public static let `default` = FilterPath.simd

    public var description: String { rawValue }

    /// Parses a path name; the error names the text and lists the valid names.
    public init(parsing text: String) throws {
        guard let path = FilterPath(rawValue: text.lowercased()) else {
            throw FramelabError(.badInput, "unknown path '\(text)' (known: \(FilterPath.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = path
    }
}
