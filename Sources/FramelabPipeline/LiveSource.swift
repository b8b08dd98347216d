/// A source on a live device the user can steer while a run goes on (a camera): what it
/// negotiated with the device, and a switch to its next device. Front ends reach these
/// through this protocol, never through a concrete source type.
public protocol LiveSource: FrameSource, Sendable {
    /// What was asked and what the device granted, for the run's attributes and the console.
    var negotiation: String { get }
    /// Asks the source to move to its next device before its next frame; safe from any
    /// thread (the switch itself happens on the source thread and is reported as a
    /// `SourceItem.event`).
    func requestSwitch()
}
