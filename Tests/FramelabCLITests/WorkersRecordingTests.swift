import FramelabTestSupport
import Foundation
import Testing

/// `--workers` changes how many frames are processed at once, never what is recorded:
/// the per-frame records of a run with two workers equal those of a run with one.
@Suite struct WorkersRecordingTests {
    @Test func evalWithTwoWorkersRecordsWhatOneWorkerRecords() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let dataset = try EvalRunComparison.sampleWithAFailure(in: dir)
        let out = dir.appendingPathComponent("eval.h5").path
        for workers in ["1", "2"] {
            let r = try TestSupport.framelab(["eval", "--dataset", dataset, "--detector", "opencv-haar", "--detector", "cascade",
                                              "--workers", workers, "--out", out, "--run-id", "w" + workers, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try EvalRunComparison.differences(out, "w1", out, "w2") == [])
    }

    @Test(arguments: ["--workers 2", "--pipelining"])
    func runWithDetectorsRecordsTheSameTablesInParallel(mode: String) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let dataset = try EvalRunComparison.sampleWithAFailure(in: dir)
        let out = dir.appendingPathComponent("run.h5").path
        for (id, extra) in [("serial", [String]()), ("parallel", mode.split(separator: " ").map(String.init))] {
            let r = try TestSupport.framelab(["run", "--source", "dataset:" + dataset, "--filter", "gray",
                                              "--detector", "cascade", "--detector", "opencv-lbp", "--out", out,
                                              "--run-id", id, "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let script = """
            import sys, json
            sys.path.insert(0, sys.argv[1])
            import framelab_h5 as fl
            import numpy as np
            path = sys.argv[2]
            diffs = []
            fa, fb = fl.frames(path, "serial"), fl.frames(path, "parallel")
            if list(fa["index"]) != list(fb["index"]) or list(fa["failed"]) != list(fb["failed"]):
                diffs.append("frames")
            ta, tb = (fl.timings(path, r)[["frame", "stage"]].to_numpy() for r in ("serial", "parallel"))
            if not np.array_equal(ta, tb):
                diffs.append("timed (frame, stage) pairs or their order")
            import h5py, pandas as pd
            def table(run, name):
                with h5py.File(path, "r") as f:
                    return pd.DataFrame(f["runs"][run][name][()]).drop(columns=["duration_ns"], errors="ignore").astype(float)
            for name in ["detections", "ground_truth", "frame_matches"]:
                a, b = (table(r, name) for r in ("serial", "parallel"))
                if a.shape != b.shape or not np.array_equal(a.to_numpy(), b.to_numpy(), equal_nan=True):
                    diffs.append(f"{name}: {a.shape} vs {b.shape}")
                if len(a) == 0:
                    diffs.append(f"{name} is empty")
            print(json.dumps(diffs))
            """
        let notebooks = TestSupport.packageRoot.appendingPathComponent("Notebooks").path
        let r = try TestSupport.python(script, arguments: [notebooks, out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func workersAndPipeliningAreCheckedFlags() throws {
        let both = try TestSupport.framelab(["run", "--source", "synthetic:32x24@30", "--workers", "2", "--pipelining"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--workers and --pipelining cannot be combined"))
        let zero = try TestSupport.framelab(["run", "--source", "synthetic:32x24@30", "--workers", "0"])
        #expect(zero.status == 64 && zero.stderr.contains("--workers must be from 1 to 64, got 0"))
        let help = try TestSupport.framelab(["run", "--help"])
        #expect(help.stdout.contains("--workers") && help.stdout.contains("--pipelining"))
    }
}
