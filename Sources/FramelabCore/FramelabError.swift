/// An error a user can cause or meet: one line naming the input and what is wrong.
public struct FramelabError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// The user gave something malformed: a spec, a name, a parameter value.
        case badInput
        /// A file or device could not be read or written.
        case io
        /// Data was read but is not what it should be (corrupt image, truncated video).
        case corrupt
        /// The operation is not available for this input (format, codec).
        case unsupported
        /// Processing a frame failed.
        case processing
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
