import Foundation
import FramelabTestSupport
import Testing

/// `framelab compare` on runs the CLI records: a known timing difference (the scalar path of
/// sepia against the SIMD one), a known AP difference (a detector told to look only for faces
/// larger than any in the images), the no-difference cases, and the errors.
@Suite(.serialized) struct CompareCommandTests {
    private func compare(_ arguments: [String]) throws -> [String: Any] {
        let r = try TestSupport.framelab(["compare"] + arguments + ["--json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    private func record(_ arguments: [String], quiet: Bool = true) throws {
        let r = try TestSupport.framelab(arguments + (quiet ? ["--quiet"] : []))
        #expect(r.status == 0, "framelab \(arguments.joined(separator: " ")): \(r.stderr)")
    }

    @Test func aSlowerPathIsASignificantDifferenceWithItsInterval() throws {
        let file = try TestSupport.makeTemporaryDirectory().appendingPathComponent("paths.h5").path
        for (id, path) in [("simd", "simd"), ("scalar", "scalar")] {
            try record(["run", "--source", "synthetic:640x480@1000", "--frames", "40", "--filter", "sepia", "--path", path,
                        "--policy", "keep-all", "--out", file, "--run-id", id])
        }
        let json = try compare(["\(file):simd", "\(file):scalar", "--resamples", "1000"])
        #expect(json["resamples"] as? Int == 1000 && json["seed"] as? Int == 1)
        let stages = try #require(json["stages"] as? [[String: Any]])
        #expect(stages.compactMap { $0["a_stage"] as? String } == ["sepia", "end-to-end"])
        let sepia = stages[0]
        let difference = try #require(sepia["difference_ms"] as? Double)
        let interval = try #require(sepia["interval_ms"] as? [Double])
        // The scalar reference is many times slower than SIMD: the whole interval lies above 0
        // and holds the difference of medians.
        #expect(interval[0] > 0 && interval[0] <= difference && difference <= interval[1], "\(sepia)")
        #expect((sepia["ratio"] as? Double ?? 0) > 2, "\(sepia)")

        // The same numbers from the file by h5py, numpy and scipy: medians and the U test.
        let script = """
            import sys, json, h5py, numpy as np
            from scipy.stats import mannwhitneyu
            with h5py.File(sys.argv[1], "r") as f:
                a = f["runs/simd/timings"]["duration_ns"] / 1e6
                b = f["runs/scalar/timings"]["duration_ns"] / 1e6
            r = mannwhitneyu(b, a, method="asymptotic")
            print(json.dumps({"diff": float(np.median(b) - np.median(a)), "u": float(r.statistic), "p": float(r.pvalue)}))
            """
        let py = try TestSupport.python(script, arguments: [file])
        #expect(py.status == 0, "\(py.stderr)")
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as? [String: Double])
        #expect(abs(difference - reference["diff"]!) < 1e-9)
        #expect(sepia["mann_whitney_u"] as? Double == reference["u"])
        let p = try #require(sepia["p"] as? Double)
        // erfc here, the normal survival function in scipy: equal to many digits, or both negligible.
        #expect(abs(p - reference["p"]!) <= 1e-6 * reference["p"]! || (p < 1e-12 && reference["p"]! < 1e-12), "\(p) vs \(reference)")
        #expect(p < 1e-6 && (sepia["b_slower_share"] as? Double ?? 0) > 0.9)

        // A run against itself: no difference, an interval around 0 (each side resampled on
        // its own), p = 1.
        let same = try #require(try compare(["\(file):scalar", "\(file):scalar"])["stages"] as? [[String: Any]])
        #expect(same.count == 2)
        for row in same {
            let bounds = try #require(row["interval_ms"] as? [Double])
            #expect(row["difference_ms"] as? Double == 0 && bounds[0] <= 0 && bounds[1] >= 0 && row["p"] as? Double == 1, "\(row)")
        }

        // The table says which way it went; the same seed gives the same output.
        let text = try TestSupport.framelab(["compare", "\(file):simd", "\(file):scalar"])
        #expect(text.status == 0 && text.stdout.contains("B slower"), "\(text.stdout)")
        #expect(try TestSupport.framelab(["compare", "\(file):simd", "\(file):scalar"]).stdout == text.stdout)
    }

    @Test func aDetectorThatMissesEveryFaceLosesItsAPAndTheSameDetectorDoesNot() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let images = dir.appendingPathComponent("composites").path
        try record(["dataset", "compose", "--out", images, "--count", "12", "--seed", "3"], quiet: false)
        let dataset = "csv:\(images)/faces.csv", file = dir.appendingPathComponent("evals.h5").path
        let detector = "opencv-haar:accuracy=low"
        try record(["eval", "--dataset", dataset, "--detector", detector, "--out", file, "--run-id", "base"])
        try record(["eval", "--dataset", dataset, "--detector", detector, "--out", file, "--run-id", "again"])
        // No face in a 640x480 composite is 400 pixels wide: this one finds none.
        try record(["eval", "--dataset", dataset, "--detector", "opencv-haar:accuracy=low,min-size=400", "--out", file,
                    "--run-id", "blind"])
        try record(["eval", "--dataset", dataset, "--detector", detector, "--limit", "6", "--out", file, "--run-id", "half"])

        let report = try TestSupport.framelab(["report", file, "--run", "base", "--json"])
        let runs = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["runs"]
                                as? [[String: Any]])
        let recordedAP = try #require((runs.first?["detectors"] as? [[String: Any]])?.first?["ap"] as? Double)
        #expect(recordedAP > 0.3, "the composites should be found: AP \(recordedAP)")

        let blind = try compare(["\(file):base", "\(file):blind"])
        #expect(blind["images"] as? Int == 12 && blind["detectors_not_compared"] is NSNull)
        let row = try #require((blind["detectors"] as? [[String: Any]])?.first)
        // Paired by element: the parameters differ, the detector is the same.
        #expect(row["a_detector"] as? String == detector && row["b_detector"] as? String == "opencv-haar:accuracy=low,min-size=400")
        // AP recomputed from the detections equals what eval recorded.
        #expect(row["a_ap"] as? Double == recordedAP && row["b_ap"] as? Double == 0)
        let difference = try #require(row["difference"] as? Double), interval = try #require(row["interval"] as? [Double])
        #expect(difference == -recordedAP)
        #expect(interval[0] <= difference && difference <= interval[1] && interval[1] < 0, "\(row)")

        // The same detector on the same images again: AP identical on every resample.
        let again = try #require((try compare(["\(file):base", "\(file):again"])["detectors"] as? [[String: Any]])?.first)
        #expect(again["difference"] as? Double == 0 && again["interval"] as? [Double] == [0, 0])

        // Different images: said so, nothing compared, timings still are.
        let half = try compare(["\(file):base", "\(file):half"])
        #expect(half["images"] is NSNull && (half["detectors"] as? [Any])?.isEmpty == true)
        #expect((half["detectors_not_compared"] as? String)?.contains("different images (A 12, B 6, 6 in common)") == true,
                "\(half)")
        let text = try TestSupport.framelab(["compare", "\(file):base", "\(file):half"])
        #expect(text.status == 0 && text.stdout.contains("AP not compared: the runs are over different images"))
    }

    @Test func missingFilesRunsAndOtherKindsAreOneLineErrors() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let file = dir.appendingPathComponent("one.h5").path
        try record(["run", "--source", "synthetic:64x48@100", "--frames", "5", "--filter", "gray", "--out", file, "--run-id", "r"])
        try record(["bench", "filters", "--filter", "gray", "--size", "64x48", "--chain-size", "64x48", "--repeats", "2",
                    "--warmup", "1", "--paths", "simd", "--out", file])
        let cases: [([String], String)] = [
            ([dir.appendingPathComponent("absent.h5").path, file], "absent.h5': no such file"),
            (["\(file):nope", file], "has no run 'nope' (runs: r, bench-"),
            ([file, "\(file):r"], "is a 'bench filters' run: compare takes pipeline runs"),
            ([dir.path, file], "is a folder, not an HDF5 file"),
        ]
        for (arguments, message) in cases {
            let r = try TestSupport.framelab(["compare"] + arguments)
            #expect(r.status == 1 && r.stdout.isEmpty, "\(arguments): \(r.stdout)")
            #expect(r.stderr.hasPrefix("framelab: error: ") && r.stderr.contains(message)
                    && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
        }
        let bad = try TestSupport.framelab(["compare", "\(file):r", "\(file):r", "--resamples", "5"])
        #expect(bad.status == 64 && bad.stderr.contains("--resamples must be between 100 and 100000"))
        let help = try TestSupport.framelab(["compare", "--help"])
        #expect(help.stdout.contains("Mann–Whitney") && help.stdout.contains("paired") && help.stdout.contains("FILE.h5:RUN"))
    }
}
