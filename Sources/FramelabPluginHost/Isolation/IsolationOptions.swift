/// What isolation may do when a worker dies or hangs.
public struct IsolationOptions: Sendable {
    /// Default per-call timeout: far above any sane per-frame time, short enough that a
    /// hung plugin costs a run seconds, not minutes.
    public static let defaultTimeoutMilliseconds = 2000

    public var timeoutMilliseconds: Int
    /// Start a fresh worker for the next frame after one died (otherwise the stage ends).
    public var restart: Bool
    /// The run's frame arena: frames in it reach the worker without a copy.
    public var arena: SharedFrameArena?

    public init(timeoutMilliseconds: Int = IsolationOptions.defaultTimeoutMilliseconds, restart: Bool = false,
                arena: SharedFrameArena? = nil) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.restart = restart
        self.arena = arena
    }
}
