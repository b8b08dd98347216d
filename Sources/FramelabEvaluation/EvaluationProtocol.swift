import Foundation
import FramelabCore
import FramelabDatasets

/// The evaluation protocols `framelab eval --protocol` knows. `framelab` is Framelab's own
/// scoring (greedy matching, AP over every distinct score), always computed: the main
/// table and `detector_metrics`. The others are the benchmarks' official kits, re-implemented
/// rule for rule; each adds a `ProtocolScores` per detector.
public enum EvaluationProtocol: String, Sendable, CaseIterable, Comparable {
    case framelab, wider, fddb

    public var summary: String {
        switch self {
        case .framelab: return "Framelab's own: greedy IoU >= 0.5 matching, all-point AP over every distinct score"
        case .wider: return "the WIDER FACE kit's: AP on the easy, medium and hard subsets (1000 normalised thresholds)"
        case .fddb: return "FDDB's evaluation program: discrete and continuous ROC, true-positive rate at 1000 false positives"
        }
    }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Protocols from repeated options and comma lists ("wider", "framelab,wider"), in
    /// canonical order without repeats; an unknown name is an error listing the known ones.
    public static func parseList(_ values: [String]) throws -> [EvaluationProtocol] {
        var found: Set<EvaluationProtocol> = []
        for value in values {
            for name in value.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let p = EvaluationProtocol(rawValue: trimmed) else {
                    throw FramelabError(.badInput, "--protocol '\(trimmed)' is not a protocol; known: "
                                        + allCases.map(\.rawValue).joined(separator: ", "))
                }
                found.insert(p)
            }
        }
        return found.sorted()
    }

    /// What scores this protocol beyond Framelab's own, or nil for `framelab` itself.
    /// Called before any image is evaluated, so a protocol that cannot run fails first.
    public func scorer() throws -> (any ProtocolScorer)? {
        switch self {
        case .framelab: return nil
        case .wider: return WiderProtocol()
        case .fddb: return FDDBProtocolScorer()
        }
    }
}

/// A protocol's scoring of one detector over the evaluated images.
public protocol ProtocolScorer: Sendable {
    var evaluationProtocol: EvaluationProtocol { get }
    /// `images`: the evaluated images and their ground truth; `frames`: the detector's
    /// results on them, in the same order (a failed frame counts as no detections).
    func scores(images: [AnnotatedImage], frames: [FrameResult]) throws -> ProtocolScores
}
