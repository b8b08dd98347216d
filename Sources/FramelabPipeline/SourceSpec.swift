import FramelabCore

/// A source as written after `--source`: `SCHEME:TARGET[?key=value&…]`.
public struct SourceSpec: Sendable, Equatable, CustomStringConvertible {
    public let scheme: String
    public let target: String
    public let options: [String: String]
    public let text: String

    /// Parses `text`; when it has no scheme, the error lists `knownSchemes` (the source
    /// module's registry knows them, the engine does not).
    public init(parsing text: String, knownSchemes: [String] = []) throws {
        guard let colon = text.firstIndex(of: ":") else {
            let hint = knownSchemes.isEmpty ? "" : " (schemes: \(knownSchemes.joined(separator: ", ")))"
            throw FramelabError(.badInput, "source '\(text)': expected SCHEME:TARGET\(hint)")
        }
        scheme = String(text[..<colon])
        var rest = String(text[text.index(after: colon)...])
        var options: [String: String] = [:]
        if let q = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, !kv[0].isEmpty else {
                    throw FramelabError(.badInput, "source '\(text)': expected key=value after '?', got '\(pair)'")
                }
                options[String(kv[0])] = String(kv[1])
            }
            rest = String(rest[..<q])
        }
        guard !rest.isEmpty else { throw FramelabError(.badInput, "source '\(text)': nothing after '\(scheme):'") }
        target = rest
        self.options = options
        self.text = text
    }

    public var description: String { text }
}
