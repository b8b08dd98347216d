/// How long a filter's output image stays valid.
public enum OutputLifetime: Sendable {
    /// Until the filter's next `process` call: a caller that keeps the output longer (a
    /// pipeline with several frames in flight) must `clone()` it.
    case untilNextCall
    /// As long as the caller holds it (the filter reuses a buffer only once nobody else
    /// holds it; see `OutputBuffer`).
    case whileHeld
}
