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

    /// A dataset of the bundled sample's images plus one missing image (a failed frame), as
    /// CSV in `dir`, beside a link to the sample's images folder: the image names stay the
    /// sample's own (`images/astronaut.png`, …, and `gone.png`), so the shard each lands in
    /// (`fnv1a64(name) mod N`) is the same wherever the checkout and `dir` are. With names
    /// holding absolute paths, a checkout elsewhere could leave a shard of three with only
    /// the missing image, and its eval fails. Of three shards, 0 and 2 get three images
    /// each, 1 gets camera.png; gone.png goes to 2.
    static func sampleWithAFailure(in dir: URL) throws -> String {
        let sample = TestSupport.packageRoot.appendingPathComponent("Datasets/sample")
        let text = try String(contentsOf: sample.appendingPathComponent("faces.csv"), encoding: .utf8) + "gone.png,10,10,40,40\n"
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("images"),
                                                   withDestinationURL: sample.appendingPathComponent("images"))
        let csv = dir.appendingPathComponent("faces.csv").path
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
        return "csv:" + csv
    }
}
