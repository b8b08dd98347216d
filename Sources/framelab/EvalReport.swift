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

    static func json(_ rows: [DetectorSummary], dataset: String, images: Int, faces: Int, workers: Int,
                     wallSeconds: Double, out: String?, runID: String?, protocolScores: [[ProtocolScores]] = []) throws -> String {
        var object: [String: Any] = [
            "dataset": dataset, "images": images, "faces": faces, "workers": workers, "threads": workers, "wall_seconds": wallSeconds,
            "detectors": rows.enumerated().map { k, r -> [String: Any] in
                var detector: [String: Any] = [
                    "name": r.name, "ap": r.accuracy.averagePrecision, "precision": r.accuracy.precision,
                    "recall": r.accuracy.recall, "f1": r.accuracy.f1, "p50_ms": timeValue(r.p50), "p95_ms": timeValue(r.p95),
                    "images": r.images, "faces": r.faces, "images_per_second": timeValue(r.imagesPerSecond), "failed": r.failed,
                    "true_positives": r.accuracy.truePositives, "false_positives": r.accuracy.falsePositives,
                ]
                // The official protocols' scores (eval --protocol), by protocol name.
                if k < protocolScores.count && !protocolScores[k].isEmpty { detector["protocols"] = EvalProtocols.json(protocolScores[k]) }
                return detector
            },
        ]
        // Without --out there is no file and no run: null, not a missing key.
        object["out"] = out ?? NSNull()
        object["run_id"] = runID ?? NSNull()
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A time for JSON: null when absent (saved predictions have no times).
    private static func timeValue(_ v: Double) -> Any { v.isFinite ? v : NSNull() }
}
