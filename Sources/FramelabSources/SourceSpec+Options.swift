import FramelabCore
import FramelabPipeline

extension SourceSpec {
    /// Throws when an option outside `known` was given.
    func checkOptions(_ known: [String]) throws {
        for key in options.keys.sorted() where !known.contains(key) {
            let allowed = known.isEmpty ? "it takes none" : "known: " + known.joined(separator: ", ")
            throw FramelabError(.badInput, "source '\(text)': unknown option '\(key)' (\(allowed))")
        }
    }
}
