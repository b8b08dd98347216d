import FramelabCore

/// An element instance whose parameters can change while it runs: the change takes
/// effect on the next frame, without re-creating the stage (see `framelab run --tune`).
public protocol TunableElement: AnyObject {
    /// Sets parameter `name` from `text`, checked against its type and range like a spec's
    /// `key=value`. Errors are one line naming the element and parameter; the old value stays.
    func setParameter(_ name: String, to text: String) throws
}
