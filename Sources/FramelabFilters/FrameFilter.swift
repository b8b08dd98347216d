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

extension FrameFilter {
    /// The safe assumption for filters that do not say (plugins hand back their own memory).
    public var outputLifetime: OutputLifetime { .untilNextCall }
}

/// A filter told where each frame sits in its stream (plugin elements of ABI 2 are:
/// fl_plugin_frame). `FilterStage` calls this instead of `process(_:)` when a filter has it.
public protocol StampedFrameFilter: FrameFilter {
    func process(_ input: Mat, stamp: FrameStamp) throws -> Mat
}
