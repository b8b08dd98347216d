import FramelabCore
import FramelabDatasets
import FramelabEvaluation

extension RunElements {
    /// The `elements` rows of saved prediction sets, in consecutive stages from `firstStage`:
    /// kind and element `predictions`, origin `file`, params `format=…,name=…,path=…` (the
    /// path absolute); `model_path` and `model_sha256` hold the file and its SHA-256 when
    /// the predictions are one file (a WIDER folder has no single checksum: both empty).
    public static func predictionRows(_ sets: [PredictionSet], firstStage: Int) -> [ElementRow] {
        sets.enumerated().map { k, set in
            let spec = set.spec
            let path = DatasetPaths.absolute(spec.path)
            var row = ElementRow(stage: firstStage + k, kind: "predictions", element: "predictions",
                                 params: "format=\(spec.format.rawValue),name=\(spec.name),path=\(path)", plugin: nil,
                                 modelPaths: spec.format == .wider ? [] : [spec.path])
            row.origin = "file"
            return row
        }
    }
}
