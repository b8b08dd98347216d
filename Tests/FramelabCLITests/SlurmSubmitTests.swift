import FramelabTestSupport
import Foundation
import Testing

/// `framelab submit slurm` on a real one-node Slurm cluster (scripts/slurm-cluster.sh: Debian's
/// munged, slurmctld and slurmd, started for this test in a private folder and stopped after it).
@Suite(.serialized) struct SlurmSubmitTests {
    /// A private cluster: its own folder, config and ports; stopped even when the test fails.
    final class Cluster {
        let dir: URL
        let environment: [String: String]
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/slurm-cluster.sh").path

        init() throws {
            dir = try TestSupport.makeTemporaryDirectory("slurm-cluster")
            let port = 20000 + Int.random(in: 0..<5000) * 2
            let own = ["FRAMELAB_SLURM_DIR": dir.path, "FRAMELAB_SLURM_PORT": String(port)]
            let start = try TestSupport.run("/bin/bash", [script, "start"], environment: own)
            guard start.status == 0 else {
                _ = try? TestSupport.run("/bin/bash", [script, "stop"], environment: own)
                throw ClusterError(message: "slurm-cluster.sh start failed: \(start.stderr)")
            }
            environment = own.merging(["SLURM_CONF": dir.appendingPathComponent("etc/slurm.conf").path]) { $1 }
        }

        func stop() {
            _ = try? TestSupport.run("/bin/bash", [script, "stop"], environment: environment)
            try? FileManager.default.removeItem(at: dir)
        }

        func slurm(_ tool: String, _ arguments: [String]) throws -> TestSupport.ProcessResult {
            try TestSupport.run("/usr/bin/env", [tool] + arguments, environment: environment)
        }

        /// JobState of every record of a job (an array job has one per task).
        func states(_ job: String) throws -> [String] {
            let r = try slurm("scontrol", ["--oneliner", "show", "job", job])
            return r.stdout.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("JobState=") }.map { String($0.dropFirst("JobState=".count)) }
            }
        }

        /// Waits until `done` holds for the job's states (polling once a second, up to `seconds`).
        func wait(_ job: String, seconds: Int = 600, until done: ([String]) -> Bool) throws -> [String] {
            for _ in 0..<seconds {
                let s = try states(job)
                if !s.isEmpty && done(s) { return s }
                sleep(1)
            }
            throw ClusterError(message: "job \(job) still \(try states(job)) after \(seconds) s; "
                               + (try slurm("squeue", []).stdout))
        }
    }

    struct ClusterError: Error, CustomStringConvertible { let message: String; var description: String { message } }

    static let finished: Set<String> = ["COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL"]

    /// "eval array job 12: …" and "merge job 13: …" → ("12", "13").
    func jobIDs(_ output: String) throws -> (array: String, merge: String) {
        func id(after prefix: String) throws -> String {
            let line = try #require(output.split(separator: "\n").first { $0.hasPrefix(prefix) }, "no '\(prefix)' in \(output)")
            return String(line.dropFirst(prefix.count).prefix { $0.isNumber })
        }
        return (try id(after: "eval array job "), try id(after: "merge job "))
    }

    @Test func fourShardsAndTheMergeJobEqualASingleRunAndAKilledShardIsNamed() throws {
        let cluster = try Cluster()
        defer { cluster.stop() }
        let work = try TestSupport.makeTemporaryDirectory("slurm-eval")
        let dataset = "csv:" + TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
        let evalArguments = ["eval", "--dataset", dataset, "--detector", "opencv-haar", "--detector", "cascade"]
        func submit(_ dir: URL, _ extra: [String] = []) throws -> TestSupport.ProcessResult {
            let r = try TestSupport.run(TestSupport.framelabBinary, ["submit", "slurm", "--shards", "4", "--out-dir", dir.path]
                                        + extra + ["--"] + evalArguments, environment: cluster.environment)
            #expect(r.status == 0, "\(r.stderr)")
            return r
        }

        // 1. Four shards and the merge, through sbatch.
        let first = work.appendingPathComponent("first")
        let (array, merge) = try jobIDs(try submit(first).stdout)
        let mergeState = try cluster.wait(merge) { $0.allSatisfy(Self.finished.contains) }
        #expect(mergeState == ["COMPLETED"], "merge log: \((try? String(contentsOfFile: first.path + "/logs/merge.log", encoding: .utf8)) ?? "")")
        #expect(try cluster.states(array) == Array(repeating: "COMPLETED", count: 4))
        // The single-process run the merged file must equal.
        let single = work.appendingPathComponent("single.h5").path
        let s = try TestSupport.framelab(evalArguments + ["--out", single, "--run-id", "single", "--quiet"])
        #expect(s.status == 0, "\(s.stderr)")
        let merged = first.appendingPathComponent("merged.h5").path
        #expect(try EvalRunComparison.differences(single, "single", merged, nil) == [])
        let report = try TestSupport.framelab(["report", merged])
        #expect(report.status == 0 && report.stdout.contains("opencv-haar") && report.stdout.contains("cascade"), "\(report.stderr)")

        // 2. Again, with shard 3 cancelled (scancel, while pending or running): the merge job can never run,
        //    Slurm cancels it by itself (no pending job left behind), and framelab merge names the missing shard.
        let second = work.appendingPathComponent("second")
        let (array2, merge2) = try jobIDs(try submit(second).stdout)
        #expect(try cluster.slurm("scancel", ["\(array2)_3"]).status == 0)
        _ = try cluster.wait(array2) { $0.allSatisfy(Self.finished.contains) }
        #expect(try cluster.wait(merge2, seconds: 120) { $0.allSatisfy(Self.finished.contains) } == ["CANCELLED"])
        #expect(!FileManager.default.fileExists(atPath: second.appendingPathComponent("merged.h5").path))
        let present = (0..<4).map { second.appendingPathComponent("shard-\($0).h5").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        let failed = try TestSupport.framelab(["merge", second.appendingPathComponent("merged.h5").path] + present)
        #expect(failed.status != 0 && failed.stderr.contains("missing shard 3/4"), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1)

        // 3. Resubmitting the cancelled shard alone completes the evaluation.
        let (array3, merge3) = try jobIDs(try submit(second, ["--only", "3"]).stdout)
        #expect(try cluster.wait(merge3) { $0.allSatisfy(Self.finished.contains) } == ["COMPLETED"])
        #expect(try cluster.states(array3) == ["COMPLETED"])
        #expect(try EvalRunComparison.differences(single, "single", second.appendingPathComponent("merged.h5").path, nil) == [])
    }

    @Test func dryRunPrintsBothScriptsAndAMissingSbatchIsOneLine() throws {
        let dir = try TestSupport.makeTemporaryDirectory("slurm-dry")
        let args = ["submit", "slurm", "--shards", "3", "--partition", "gpu", "--time", "10:00", "--out-dir", dir.path,
                    "--", "eval", "--dataset", "csv:faces.csv", "--detector", "cascade", "--threads", "2"]
        let dry = try TestSupport.framelab(["submit", "slurm", "--dry-run"] + args.dropFirst(2))
        #expect(dry.status == 0, "\(dry.stderr)")
        for text in ["#SBATCH --array=0-2", "#SBATCH --partition=gpu", "#SBATCH --time=10:00", "#SBATCH --cpus-per-task=2",
                     "--shard \"$SLURM_ARRAY_TASK_ID/3\"", "shard-\"$SLURM_ARRAY_TASK_ID\".h5", "merge.sbatch",
                     "--dependency=afterok:", "--kill-on-invalid-dep=yes", "\(dir.path)/shard-2.h5",
                     " merge \(dir.path)/merged.h5"] {
            #expect(dry.stdout.contains(text), "dry run lacks \(text)")
        }
        // The scripts call this binary by absolute path.
        #expect(dry.stdout.contains("exec /") && dry.stdout.contains("/framelab eval --dataset"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("eval.sbatch").path))

        let noSbatch = try TestSupport.framelab(args, environment: ["PATH": "/nonexistent"])
        #expect(noSbatch.status != 0 && noSbatch.stderr.contains("sbatch not found"), "\(noSbatch.stderr)")
        #expect(noSbatch.stderr.split(separator: "\n").count == 1)
        for (bad, text) in [(["--shards", "0"], "--shards"), (["--only", "5", "--out-dir", "/tmp/x"], "--only 5")] {
            let r = try TestSupport.framelab(["submit", "slurm", "--shards", "4"] + bad
                                             + ["--", "eval", "--dataset", "csv:x.csv", "--detector", "cascade"])
            #expect(r.status != 0 && r.stderr.contains(text), "\(r.stderr)")
        }
        let owned = try TestSupport.framelab(["submit", "slurm", "--shards", "2", "--dry-run", "--", "eval", "--dataset", "csv:x.csv",
                                              "--detector", "cascade", "--out", "x.h5"])
        #expect(owned.status != 0 && owned.stderr.contains("--out"), "\(owned.stderr)")
        let typo = try TestSupport.framelab(["submit", "slurm", "--shards", "2", "--dry-run", "--", "eval", "--dataset", "csv:x.csv",
                                             "--detector", "cascade", "--thread", "2"])
        #expect(typo.status != 0 && typo.stderr.contains("--thread") && typo.stderr.split(separator: "\n").count == 1, "\(typo.stderr)")
        let invalid = try TestSupport.framelab(["submit", "slurm", "--shards", "2", "--dry-run", "--", "eval", "--dataset", "csv:x.csv"])
        #expect(invalid.status != 0 && invalid.stderr.contains("--all-detectors or --predictions is required")
                && invalid.stderr.split(separator: "\n").count == 1, "\(invalid.stderr)")
    }
}
