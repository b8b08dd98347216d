import Foundation
import FramelabCore
import FramelabEvaluation

/// `eval --protocol fddb --roc-dir DIR`: each detector's ROC files as FDDB's evaluation
/// program writes them, DIR/LABEL/DiscROC.txt and DIR/LABEL/ContROC.txt (LABEL with
/// characters other than letters, digits, '-', '_' and '.' made '_'), for plotting beside
/// published curves with FDDB's own scripts.
enum FDDBROCFiles {
    static func write(_ scores: [[ProtocolScores]], labels: [String], into directory: String) throws {
        for (k, detector) in scores.enumerated() {
            guard let fddb = detector.first(where: { $0.evaluationProtocol == .fddb }),
                  let result = FDDBProtocolResult(fddb) else { continue }
            let folder = (directory as NSString).appendingPathComponent(folderName(labels[k]))
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw FramelabError(.io, "--roc-dir: cannot create '\(folder)': \(error.localizedDescription)")
            }
            try result.write(discROC: (folder as NSString).appendingPathComponent("DiscROC.txt"),
                             contROC: (folder as NSString).appendingPathComponent("ContROC.txt"))
        }
    }

    static func folderName(_ label: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let name = String(label.map { allowed.contains($0) ? $0 : "_" })
        return name.allSatisfy { $0 == "." } ? "_" + name : name
    }
}
