import FramelabCore
import FramelabEvaluation
import Foundation

/// The comparison table and the JSON object `framelab eval` prints.
enum EvalReport {
    static func table(_ rows: [DetectorSummary], dataset: String, images: Int, faces: Int, workers: Int,
                      wallSeconds: Double) -> String {
        var lines = ["dataset \(dataset): \(images) images, \(faces) faces; \(workers) worker\(workers == 1 ? "" : "s"), "
                     + String(format: "%.2f s", wallSeconds)]
        let width = max(8, rows.map(\.name.count).max() ?? 0)
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func num(_ v: Double, _ n: Int, _ digits: Int) -> String {
            let s = String(format: "%.\(digits)f", v)
            return String(repeating: " ", count: max(0, n - s.count)) + s
        }
        // Saved predictions have no times: "—", never 0 ms.
        func time(_ v: Double, _ n: Int, _ digits: Int) -> String { v.isFinite ? num(v, n, digits) : "—".leftPadded(n) }
        lines.append(pad("detector", width) + "      AP  precision  recall      F1   p50 ms   p95 ms  images/s  failed")
        for r in rows {
            lines.append(pad(r.name, width) + num(r.accuracy.averagePrecision, 8, 3) + num(r.accuracy.precision, 11, 3)
                         + num(r.accuracy.recall, 8, 3) + num(r.accuracy.f1, 8, 3) + time(r.p50, 9, 2) + time(r.p95, 9, 2)
                         + time(r.imagesPerSecond, 10, 1) + num(Double(r.failed), 8, 0))
        }
        lines.append("AP: all-point interpolated, IoU >= 0.5 greedy matching in score order; precision/recall/F1 at the "
                     + "operating point (every box returned); ms per image: one detector call on one core; images/s = 1000 / mean ms.")
        return lines.joined(separator: "\n")
    }

    /// What `eval --json` and `merge --json` print: {"dataset", "images", "faces", "workers",
    /// "threads", "wall_seconds", "out", "run_id", "detectors": [{"name", "ap", "precision",
    /// "recall", "f1", "p50_ms", "p95_ms", "images", "faces", "images_per_second", "failed",
    /// "true_positives", "false_positives", "protocols"?}]}. Without --out there is no file
    /// and no run: "out" and "run_id" are null. Saved predictions have no times: null.
    struct Document: Encodable {
        struct Detector: Encodable {
            let name: String
            @NullWhenAbsent var ap: Double?
            @NullWhenAbsent var precision: Double?
            @NullWhenAbsent var recall: Double?
            @NullWhenAbsent var f1: Double?
            @NullWhenAbsent var p50_ms: Double?
            @NullWhenAbsent var p95_ms: Double?
            let images: Int, faces: Int
            @NullWhenAbsent var images_per_second: Double?
            let failed: Int, true_positives: Int, false_positives: Int
            /// The official protocols' scores (eval --protocol), by protocol name; absent without.
            let protocols: [String: EvalProtocols.Document]?
        }
        let dataset: String
        let images: Int, faces: Int, workers: Int, threads: Int
        let wall_seconds: Double
        @NullWhenAbsent var out: String?
        @NullWhenAbsent var run_id: String?
        let detectors: [Detector]
    }

    static func document(_ rows: [DetectorSummary], dataset: String, images: Int, faces: Int, workers: Int,
                         wallSeconds: Double, out: String?, runID: String?, protocolScores: [[ProtocolScores]] = []) -> Document {
        Document(dataset: dataset, images: images, faces: faces, workers: workers, threads: workers, wall_seconds: wallSeconds,
                 out: out, run_id: runID, detectors: rows.enumerated().map { k, r in
            let protocols = k < protocolScores.count && !protocolScores[k].isEmpty ? EvalProtocols.documents(protocolScores[k]) : nil
            return Document.Detector(
                name: r.name, ap: r.accuracy.averagePrecision.finiteOrNil, precision: r.accuracy.precision.finiteOrNil,
                recall: r.accuracy.recall.finiteOrNil, f1: r.accuracy.f1.finiteOrNil, p50_ms: r.p50.finiteOrNil,
                p95_ms: r.p95.finiteOrNil, images: r.images, faces: r.faces, images_per_second: r.imagesPerSecond.finiteOrNil,
                failed: r.failed, true_positives: r.accuracy.truePositives, false_positives: r.accuracy.falsePositives,
                protocols: protocols)
        })
    }
}
