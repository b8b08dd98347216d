/// The pixel layouts a `Mat` can hold. Raw values are shared with the C shims
/// (`FL_FORMAT_*` in `framelab_cv.h`), so they must not change.
public enum PixelFormat: Int32, Sendable, CaseIterable, CustomStringConvertible {
    case gray8 = 1
    case bgr8 = 2
    case bgra8 = 3
    case grayF32 = 4

    /// Channels per pixel.
    public var channels: Int {
        switch self {
        case .gray8, .grayF32: return 1
        case .bgr8: return 3
        case .bgra8: return 4
        }
    }

    /// Bytes per channel sample.
    public var bytesPerChannel: Int { self == .grayF32 ? 4 : 1 }

    /// Bytes per pixel.
    public var bytesPerPixel: Int { channels * bytesPerChannel }

    /// The short lower-case name used on the command line and in HDF5 attributes.
    public var name: String {
        switch self {
        case .gray8: return "gray8"
        case .bgr8: return "bgr8"
        case .bgra8: return "bgra8"
        case .grayF32: return "grayf32"
        }
    }

    public var description: String { name }

    /// Parses a name as printed by `name` (case-insensitive).
    public init?(name: String) {
        guard let match = PixelFormat.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }
}
