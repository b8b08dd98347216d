import FramelabCore
import FramelabFilters

/// One timed step of the pipeline.
///
/// An instance processes one frame at a time. To run a chain on several frames at once
/// (`Pipeline` with `workers > 1`), the engine asks each stage for a `replica()` per
/// extra worker; stages that keep no state between frames may return themselves.
public protocol PipelineStage: AnyObject {
    var name: String { get }
    /// The output format for an input format, or nil when the stage does not accept it.
    func outputFormat(for input: PixelFormat) -> PixelFormat?
    /// Input formats accepted, for error messages.
    var acceptedFormats: [PixelFormat] { get }
    func process(_ frame: Frame) throws -> Frame
    /// Another instance, configured the same, for another worker thread. Throws when the
    /// stage cannot run on several frames at once.
    func replica() throws -> any PipelineStage
    /// Whether a failure of this stage ends the frame's way through the chain. A stage
    /// that passes the image through unchanged (a detector) may let later stages go on.
    var failureEndsFrame: Bool { get }
    /// Whether the image `process` returns is valid only until the stage's next call, so
    /// an engine with several frames in flight must copy it.
    var outputValidUntilNextCall: Bool { get }
}

extension PipelineStage {
    public func replica() throws -> any PipelineStage {
        throw FramelabError(.unsupported, "stage '\(name)' cannot run on several workers (it has no replica)")
    }
    public var failureEndsFrame: Bool { true }
    public var outputValidUntilNextCall: Bool { false }
}

/// A filter as a pipeline stage: the frame keeps its index and times, the image changes.
public final class FilterStage: PipelineStage {
    public let filter: any FrameFilter
    /// `filter` when it wants each frame's index and times (cast once, not per frame).
    private let stamped: (any StampedFrameFilter)?
    public let acceptedFormats: [PixelFormat]
    /// Makes another instance of the filter for another worker (nil: it has no replica).
    private let makeFilter: (() throws -> any FrameFilter)?
    public var name: String { filter.name }
    /// Runs on the stage's thread before each frame, with the frame's index: where a run
    /// applies live parameter changes (`run --tune`), between frames. Not given to replicas.
    public var beforeFrame: ((Int) -> Void)?

    /// `makeFilter` builds an instance configured like `filter`; give it for filters that
    /// may run on several workers (each worker then has its own instance and scratch).
    public init(_ filter: any FrameFilter, acceptedFormats: [PixelFormat],
                makeFilter: (() throws -> any FrameFilter)? = nil) {
        self.filter = filter
        stamped = filter as? any StampedFrameFilter
        self.acceptedFormats = acceptedFormats
        self.makeFilter = makeFilter
    }

    /// A stage for `filter`, accepting what the filter accepts, replicated by `makeFilter`.
    public convenience init(_ filter: any FrameFilter, makeFilter: (() throws -> any FrameFilter)?) {
        self.init(filter, acceptedFormats: PixelFormat.allCases.filter { filter.outputFormat(for: $0) != nil },
                  makeFilter: makeFilter)
    }

    public func outputFormat(for input: PixelFormat) -> PixelFormat? { filter.outputFormat(for: input) }

    public func process(_ frame: Frame) throws -> Frame {
        beforeFrame?(frame.index)
        var out = frame
        if let stamped {
            out.image = try stamped.process(frame.image, stamp: frame.stamp)
        } else {
            out.image = try filter.process(frame.image)
        }
        return out
    }

    public func replica() throws -> any PipelineStage {
        guard let makeFilter else {
            throw FramelabError(.unsupported, "filter '\(name)' cannot run on several workers (it has no replica)")
        }
        return FilterStage(try makeFilter(), acceptedFormats: acceptedFormats, makeFilter: makeFilter)
    }

    public var outputValidUntilNextCall: Bool { filter.outputLifetime == .untilNextCall }
}
