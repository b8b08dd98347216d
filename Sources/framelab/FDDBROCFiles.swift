import Foundation
import FramelabCore
import FramelabEvaluation
import FramelabRuns

/// `eval --protocol fddb --roc-dir DIR`: each detector's ROC files as FDDB's evaluation
/// program writes them, DIR/LABEL/DiscROC.txt and DIR/LABEL/ContROC.txt (LABEL made a file
/// name as `export` makes it: `PredictionExport.fileName`), for plotting beside
/// published curves with FDDB's own scripts.
enum FDDBROCFiles {
    static func write(_ scores: [[ProtocolScores]], labels: [String], into directory: String) throws {
        for (k, detector) in scores.enumerated() {
            guard let fddb = detector.first(where: { $0.evaluationProtocol == .fddb }),
                  let result = FDDBProtocolResult(fddb) else { continue }
            let folder = (directory as NSString).appendingPathComponent(PredictionExport.fileName(labels[k]))
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw FramelabError(.io, "--roc-dir: cannot create '\(folder)': \(error.localizedDescription)")
            }
            try result.write(discROC: (folder as NSString).appendingPathComponent("DiscROC.txt"),
                             contROC: (folder as NSString).appendingPathComponent("ContROC.txt"))
        }
    }
}
