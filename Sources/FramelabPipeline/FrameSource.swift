import FramelabCore

/// What a source hands the pipeline: a frame, or a frame it could not produce.
public enum SourceItem: Sendable {
    case frame(Frame)
    /// A frame that failed (corrupt file in a folder, …); the run records it and goes on.
    case failure(index: Int, origin: String, reason: String)
    /// Something that happened to the source itself (a camera switched device, …); recorded as a run event.
    case event(kind: String, detail: String)
}

/// A producer of frames. `next()` is called from the pipeline's source thread only.
public protocol FrameSource: AnyObject {
    /// The spec it was opened from, for records and messages.
    var spec: SourceSpec { get }
    /// Live sources (cameras, synthetic) produce frames on their own clock and default
    /// to the `drop-late` policy; file sources default to `keep-all`.
    var isLive: Bool { get }
    /// Frames per second, when the source has a rate.
    var nominalFPS: Double? { get }
    /// How many frames it will produce, when known in advance.
    var expectedFrameCount: Int? { get }
    /// The next item, nil at the end. Throws when the source cannot go on.
    func next() throws -> SourceItem?
}

extension FrameSource {
    public var defaultPolicy: DropPolicy { isLive ? .dropLate : .keepAll }
}
