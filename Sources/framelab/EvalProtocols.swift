import FramelabCore
import FramelabDatasets
import FramelabEvaluation
import Foundation

/// The official protocols `eval --protocol` (and `merge`, from what the shards recorded)
/// score with beyond Framelab's own, and how their scores are printed.
struct EvalProtocols {
    let protocols: [EvaluationProtocol]
    private let scorers: [any ProtocolScorer]

    /// `protocols` as given; a protocol that cannot run here fails now, before any image.
    init(_ protocols: [EvaluationProtocol]) throws {
        self.protocols = protocols.isEmpty ? [.framelab] : protocols
        scorers = try self.protocols.compactMap { try $0.scorer() }
    }

    /// The `--protocol` help line.
    static let help = "Scoring protocol: " + EvaluationProtocol.allCases.map(\.rawValue).joined(separator: ", ")
        + " (default framelab); repeat it or give a comma list. framelab's scores are always in the main table."

    /// One line per protocol for --help.
    static var discussion: String {
        EvaluationProtocol.allCases.map { "\($0.rawValue) — \($0.summary)" }.joined(separator: "\n  ")
    }

    /// Per detector, its scores under each official protocol: `images` the evaluated images,
    /// `frames[k]` detector k's results on them.
    func score(images: [AnnotatedImage], frames: [[FrameResult]]) throws -> [[ProtocolScores]] {
        try frames.map { detector in try scorers.map { try $0.scores(images: images, frames: detector) } }
    }

    /// A table per official protocol: one row per detector, one column per metric, then the notes.
    static func table(_ scores: [[ProtocolScores]], labels: [String]) -> String {
        guard let first = scores.first, !first.isEmpty else { return "" }
        let width = max(8, labels.map(\.count).max() ?? 0)
        var lines: [String] = []
        for (p, example) in first.enumerated() {
            let names = example.metrics.map(\.name)
            let columns = names.map { max(8, $0.count) }
            lines.append("")
            lines.append("protocol \(example.evaluationProtocol.rawValue): \(example.evaluationProtocol.summary)")
            lines.append("detector".padding(toLength: width, withPad: " ", startingAt: 0)
                         + zip(names, columns).map { "  " + $0.leftPadded($1) }.joined())
            var notes: [String] = []
            for (k, detector) in scores.enumerated() where p < detector.count {
                let values = zip(names, columns).map { name, w in
                    "  " + (detector[p].metric(name).map { Self.metricText(name, $0) } ?? "-").leftPadded(w)
                }
                lines.append(labels[k].padding(toLength: width, withPad: " ", startingAt: 0) + values.joined())
                for note in detector[p].notes where !notes.contains(note) { notes.append(note) }
            }
            lines += notes.map { "note: " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// A metric as printed: counts (`faces`) whole, rates and precisions to four places.
    static func metricText(_ name: String, _ value: Double) -> String {
        if value.isNaN { return "n/a" }
        if name == "faces", let whole = Int(exactly: value) { return "\(whole)" }
        return String(format: "%.4f", value)
    }

    /// One protocol's scores in a detector's --json: {"metrics": {...}, "curves":
    /// {"wider_easy": [[threshold, x, y], …]}, "notes": [...]}; undefined values are null.
    struct Document: Encodable {
        let metrics: [String: Double?]
        let curves: [String: [[Double?]]]
        let notes: [String]
    }

    /// One detector's protocol scores for --json, by protocol name ("wider", "fddb", …).
    static func documents(_ scores: [ProtocolScores]) -> [String: Document] {
        var out: [String: Document] = [:]
        for s in scores {
            out[s.evaluationProtocol.rawValue] = Document(
                metrics: Dictionary(s.metrics.map { ($0.name, $0.value.finiteOrNil) }, uniquingKeysWith: { a, _ in a }),
                curves: Dictionary(s.curves.map { c in
                    (c.name.rawValue, c.points.map { [$0.threshold.finiteOrNil, $0.x.finiteOrNil, $0.y.finiteOrNil] })
                }, uniquingKeysWith: { a, _ in a }),
                notes: s.notes)
        }
        return out
    }
}
