import FramelabCore
import FramelabCV
import FramelabFilters

/// Frames for a detector plugin in a format it accepts. A frame already in one of its
/// formats goes as it is; any other is converted with OpenCV (cvtColor) into a buffer kept
/// across frames. A colour conversion moves no pixel, so the boxes the detector reports
/// need no mapping back.
///
/// The target keeps what it can of the frame: a colour frame goes to another colour
/// format before gray, a gray frame to gray before colour. `grayF32` is neither made nor
/// converted: a plugin that takes only that gets a one-line error, as before.
final class DetectorInput {
    private let label: String
    private let accepted: [PixelFormat]
    private var buffer = OutputBuffer()

    init(label: String, accepted: [PixelFormat]) {
        self.label = label
        self.accepted = accepted
    }

    /// The format `source` is converted to for these accepted formats, or nil when none fits.
    static func target(for source: PixelFormat, accepted: [PixelFormat]) -> PixelFormat? {
        if accepted.contains(source) { return source }
        let order: [PixelFormat]
        switch source {
        case .bgra8: order = [.bgr8, .gray8]
        case .bgr8: order = [.bgra8, .gray8]
        case .gray8: order = [.bgr8, .bgra8]
        case .grayF32: order = []
        }
        return order.first { accepted.contains($0) }
    }

    /// `frame` itself, or a converted copy (valid until the next call).
    func image(for frame: Mat) throws -> Mat {
        guard let format = Self.target(for: frame.format, accepted: accepted) else {
            let names = accepted.map(\.name).joined(separator: ", ")
            throw FramelabError(.unsupported, "element \(label) does not accept \(frame.format) images (accepts \(names))")
        }
        if format == frame.format { return frame }
        let out = buffer.image(format: format, width: frame.width, height: frame.height)
        try frame.convert(into: out)
        return out
    }
}
