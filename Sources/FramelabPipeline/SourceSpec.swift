import FramelabCore

/// A source as written after `--source`: `SCHEME:TARGET[?key=value&…]`.
public struct SourceSpec: Sendable, Equatable, CustomStringConvertible {
    public let scheme: String
    public let target: String
    public let options: [String: String]
    public let text: String

    /// The schemes `SourceFactory` opens, with one line of help each.
    public static let schemes: [(scheme: String, usage: String)] = [
        ("image", "image:PATH[?repeat=N] — one image file, delivered N times (default 1)"),
        ("images", "images:DIR — every image file in DIR, sorted by name"),
        ("video", "video:PATH[?pace=fast|realtime] — a video file, as fast as possible or at its frame rate"),
        ("synthetic", "synthetic:WxH@FPS — a deterministic moving test pattern at FPS frames per second"),
        ("camera", CameraSource.usage),
        ("dataset", "dataset:FORMAT:PATH — the images of an annotated face dataset (fddb, wider, dlib, csv)"),
    ]

    public init(parsing text: String) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw FramelabError(.badInput, "source '\(text)': expected SCHEME:TARGET (schemes: \(Self.schemeNames))")
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

    static var schemeNames: String { schemes.map(\.scheme).joined(separator: ", ") }

    /// Throws when an option outside `known` was given.
    func checkOptions(_ known: [String]) throws {
        for key in options.keys.sorted() where !known.contains(key) {
            let allowed = known.isEmpty ? "it takes none" : "known: " + known.joined(separator: ", ")
            throw FramelabError(.badInput, "source '\(text)': unknown option '\(key)' (\(allowed))")
        }
    }
}
