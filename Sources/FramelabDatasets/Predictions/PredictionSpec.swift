import Foundation
import FramelabCore

/// `--predictions [FORMAT:]PATH[:NAME]` taken apart: the format (given, or detected from
/// the path), the path, and the name its run label uses (`predictions:NAME`; default the
/// file or folder name without extension).
public struct PredictionSpec: Sendable, Equatable {
    public let format: PredictionFormat
    public let path: String
    public let name: String

    public init(parsing text: String) throws {
        var rest = Substring(text)
        var given: PredictionFormat?
        if let colon = rest.firstIndex(of: ":"), let f = PredictionFormat(rawValue: String(rest[..<colon])) {
            given = f
            rest = rest[rest.index(after: colon)...]
        }
        // PATH:NAME, unless the whole rest names a file (a path may hold a colon).
        var path = String(rest), name: String?
        if !FileManager.default.fileExists(atPath: path), let colon = rest.lastIndex(of: ":") {
            path = String(rest[..<colon])
            name = String(rest[rest.index(after: colon)...])
        }
        guard !path.isEmpty else { throw FramelabError(.badInput, "--predictions '\(text)': no path") }
        if let name, name.isEmpty || name.contains("/") {
            throw FramelabError(.badInput, "--predictions '\(text)': NAME after ':' must be non-empty and contain no '/'")
        }
        let collapsed = collapsingSlashes(path)
        let trimmed = collapsed.hasSuffix("/") && collapsed.count > 1 ? String(collapsed.dropLast()) : collapsed
        self.path = path
        format = given ?? PredictionFormat.detect(path)
        self.name = name ?? ((trimmed as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}
