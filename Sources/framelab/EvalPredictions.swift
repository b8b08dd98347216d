import FramelabCore
import FramelabDatasets
import FramelabEvaluation
import FramelabRuns

/// `framelab eval --predictions`: the saved prediction sets of an evaluation, read and
/// matched to the dataset before anything runs, then appended after the detectors as
/// untimed "detectors" (docs/predictions.md).
struct EvalPredictions {
    let sets: [PredictionSet]

    /// Reads every set and matches it to the `whole` dataset (after --limit), keeping the
    /// images at `positions` (the shard's); prints each set's warnings (one line each).
    init(_ arguments: [String], whole: FaceDataset, positions: [Int], detectorLabels: [String]) throws {
        sets = try arguments.map { try PredictionSet($0, dataset: whole).selecting(positions) }
        var seen = Set(detectorLabels)
        for set in sets where !seen.insert(set.label).inserted {
            throw FramelabError(.badInput, "--predictions: two runs would be labelled '\(set.label)'; "
                                + "name one with PATH:NAME")
        }
        for warning in sets.flatMap(\.warnings) { printToStandardError("framelab: warning: " + warning) }
    }

    var labels: [String] { sets.map(\.label) }

    func elements(firstStage: Int) -> [ElementRow] { RunElements.predictionRows(sets, firstStage: firstStage) }

    /// Per prediction set, its untimed results on each image of `dataset` (they follow the
    /// detectors' results).
    func frames(for dataset: FaceDataset) -> [[FrameResult]] { sets.map { $0.frames(for: dataset) } }
}
