import FramelabTestSupport
import Foundation

/// Compares two eval runs through the notebooks' reader (Notebooks/framelab_h5.py,
/// `compare_eval_runs`): the differences other than timings, empty when equal.
enum EvalRunComparison {
    static func differences(_ a: String, _ runA: String?, _ b: String, _ runB: String?) throws -> [String] {
        let script = """
            import sys, json
            sys.path.insert(0, sys.argv[1])
            import framelab_h5 as fl
            none = lambda s: None if s == "" else s
            print(json.dumps(fl.compare_eval_runs(sys.argv[2], none(sys.argv[3]), sys.argv[4], none(sys.argv[5]))))
            """
        let notebooks = TestSupport.packageRoot.appendingPathComponent("Notebooks").path
        let r = try TestSupport.python(script, arguments: [notebooks, a, runA ?? "", b, runB ?? ""])
        guard r.status == 0, let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String] else {
            return ["comparison failed: \(r.stderr)"]
        }
        return list
    }

    /// A dataset of the bundled sample's images plus one missing image (a failed frame), as CSV.
    static func sampleWithAFailure(in dir: URL) throws -> String {
        let sample = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv")
        var text = try String(contentsOf: sample, encoding: .utf8)
        let images = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path
        text = text.replacingOccurrences(of: "\nimages/", with: "\n\(images)/")
        text += "\(dir.path)/gone.png,10,10,40,40\n"
        let csv = dir.appendingPathComponent("faces.csv").path
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
        return "csv:" + csv
    }
}
