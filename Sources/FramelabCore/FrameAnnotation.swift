/// A typed result that travels with a frame through the pipeline: what a detector found,
/// the ground truth a dataset source knows, and any later per-frame result.
///
/// Stages attach annotations to the frame they return; sinks read them from the frame's
/// outcome. Nothing keeps a "last result" for another object to read after an event.
public protocol FrameAnnotation: Sendable {}

extension Array where Element == any FrameAnnotation {
    /// The annotations of type `T`, in the order they were attached.
    public func all<T: FrameAnnotation>(_ type: T.Type) -> [T] { compactMap { $0 as? T } }
}
