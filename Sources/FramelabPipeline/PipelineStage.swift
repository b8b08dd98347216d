import FramelabCore
import FramelabFilters

/// One timed step of the pipeline.
public protocol PipelineStage: AnyObject {
    var name: String { get }
    /// The output format for an input format, or nil when the stage does not accept it.
    func outputFormat(for input: PixelFormat) -> PixelFormat?
    /// Input formats accepted, for error messages.
    var acceptedFormats: [PixelFormat] { get }
    func process(_ frame: Frame) throws -> Frame
}

/// A filter as a pipeline stage: the frame keeps its index and times, the image changes.
public final class FilterStage: PipelineStage {
    public let filter: any FrameFilter
    public let acceptedFormats: [PixelFormat]
    public var name: String { filter.name }

    public init(_ filter: any FrameFilter, acceptedFormats: [PixelFormat]) {
        self.filter = filter
        self.acceptedFormats = acceptedFormats
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? { filter.outputFormat(for: input) }

    public func process(_ frame: Frame) throws -> Frame {
        var out = frame
        out.image = try filter.process(frame.image)
        return out
    }
}
