import Foundation

/// What the discovery worker found in one plugin file: the library's description, or why
/// the file cannot be used, and the outcome of each element's test run when one was asked
/// for. Kept in the verdict cache by the file's SHA-256.
public struct PluginFileVerdict: Codable, Sendable {
    /// The library's name (nil when rejected).
    public var libraryName: String?
    public var abiVersion: String?
    var elements: [PluginElementRecord] = []
    /// One line naming the file and what is wrong (nil: accepted).
    public var rejection: String?
    /// Element name → "" when its default test run passed, else the one-line failure.
    /// Elements missing were not tried.
    var trials: [String: String] = [:]
    /// False for outcomes that may change without the file changing (a timeout, a missing
    /// dependency library, a failed test run that may lack a model file): never cached.
    var cacheable = true

    static func rejected(_ reason: String, cacheable: Bool) -> PluginFileVerdict {
        PluginFileVerdict(rejection: reason, cacheable: cacheable)
    }

    /// True when every element's default test run has an outcome.
    var triedAll: Bool { elements.allSatisfy { trials[$0.name] != nil } }

    /// Only what may be cached: a cacheable verdict and the test runs that passed.
    var cachedPart: PluginFileVerdict? {
        guard cacheable else { return nil }
        var kept = self
        kept.trials = trials.filter { $0.value.isEmpty }
        return kept
    }

    /// The same verdict for the same content found at `path` instead of `checkedPath`.
    func moved(from checkedPath: String, to path: String) -> PluginFileVerdict {
        guard checkedPath != path else { return self }
        var moved = self
        moved.rejection = rejection?.replacingOccurrences(of: checkedPath, with: path)
        return moved
    }
}

/// One line from the discovery worker to the host (JSON): first the verdict, then, when
/// test runs were asked for, one trial outcome per element in order.
struct DiscoveryMessage: Codable {
    var verdict: PluginFileVerdict?
    var trialElement: String?
    var trialFailure: String?
}

extension PluginFileVerdict {
    /// The accepted elements' descriptions, for the file at `path`.
    public func elementInfos(path: String) -> [PluginElementInfo] {
        elements.compactMap { $0.info(path: path) }
    }

    /// The default test run of element `name`: nil when not tried, "" when it passed, else the failure.
    public func trialOutcome(_ name: String) -> String? { trials[name] }
}
