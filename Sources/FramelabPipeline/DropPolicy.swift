/// What happens when frames arrive faster than the stages process them.
public enum DropPolicy: String, Sendable, CaseIterable {
    /// Every frame is processed; the source waits when the queue is full.
    case keepAll = "keep-all"
    /// The newest frame wins: a frame still waiting when a newer one arrives is dropped
    /// (and recorded), like AVFoundation's alwaysDiscardsLateVideoFrames.
    case dropLate = "drop-late"
}
