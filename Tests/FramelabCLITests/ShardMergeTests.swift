import FramelabTestSupport
import Foundation
import Testing

/// `framelab eval --shard` and `framelab merge` through the real binary (no scheduler).
@Suite struct ShardMergeTests {
    static let detectors = ["--detector", "opencv-haar", "--detector", "cascade:accuracy=low"]

    func eval(_ dataset: String, _ extra: [String], env: [String: String]? = nil) throws {
        let r = try TestSupport.framelab(["eval", "--dataset", dataset] + Self.detectors + extra + ["--quiet"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Three shards of the sample (one image missing on purpose) and a single-process run.
    func shardsAndSingle() throws -> (dir: URL, dataset: String, shards: [String], single: String) {
        let dir = try TestSupport.makeTemporaryDirectory("shards")
        let dataset = try EvalRunComparison.sampleWithAFailure(in: dir)
        let single = dir.appendingPathComponent("single.h5").path
        try eval(dataset, ["--out", single, "--run-id", "single"])
        let shards = (0..<3).map { dir.appendingPathComponent("shard-\($0).h5").path }
        for k in 0..<3 { try eval(dataset, ["--shard", "\(k)/3", "--out", shards[k]]) }
        return (dir, dataset, shards, single)
    }

    @Test func mergedShardsEqualASingleProcessRun() throws {
        let (dir, _, shards, single) = try shardsAndSingle()
        let out = dir.appendingPathComponent("merged.h5").path
        // Shards given in any order.
        let m = try TestSupport.framelab(["merge", out, shards[2], shards[0], shards[1], "--run-id", "merged", "--json"])
        #expect(m.status == 0, "\(m.stderr)")
        #expect(try EvalRunComparison.differences(single, "single", out, "merged") == [])
        // The merge reports the same metrics as the single run.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(m.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["detectors"] as? [[String: Any]])
        #expect(rows.count == 2 && rows.allSatisfy { ($0["failed"] as? Int) == 1 })
        // framelab report reads it like any eval run: its detectors' scores too.
        let report = try TestSupport.framelab(["report", out])
        #expect(report.status == 0 && report.stdout.contains("eval merged"), "\(report.stderr)")
        #expect(report.stdout.contains("      AP  precision"), "\(report.stdout)")
        // Every shard took some images, and they add up to the whole dataset.
        let counts = try shards.map { path -> Int in
            let r = try TestSupport.python("import h5py,sys; f=h5py.File(sys.argv[1]); r=f['runs'][list(f['runs'])[0]]; "
                                           + "print(len(r['frames']), r.attrs['shard'])", arguments: [path])
            return Int(r.stdout.split(separator: " ")[0]) ?? -1
        }
        let images = try TestSupport.python("import h5py,sys; print(len(h5py.File(sys.argv[1])['runs/single/frames']))",
                                            arguments: [single]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(counts.allSatisfy { $0 > 0 } && String(counts.reduce(0, +)) == images, "\(counts) vs \(images)")
    }

    @Test func missingDuplicateAndMismatchedShardsAreOneLineErrorsNamingThem() throws {
        let (dir, dataset, shards, _) = try shardsAndSingle()
        let out = dir.appendingPathComponent("merged.h5").path
        func merge(_ files: [String], _ extra: [String] = []) throws -> TestSupport.ProcessResult {
            try TestSupport.framelab(["merge", out] + files + extra)
        }
        let missing = try merge([shards[0], shards[2]])
        #expect(missing.status != 0 && missing.stderr.contains("missing shard 1/3"), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let twice = try merge([shards[0], shards[1], shards[2], shards[1]])
        #expect(twice.status != 0 && twice.stderr.contains("shard 1/3 is given twice"), "\(twice.stderr)")

        // Another dataset (one image fewer), other detector settings, another shard count.
        let other = dir.appendingPathComponent("other.h5").path
        try eval(dataset, ["--shard", "1/3", "--limit", "7", "--out", other])
        let fingerprint = try merge([shards[0], other, shards[2]])
        #expect(fingerprint.status != 0 && fingerprint.stderr.contains(other) && fingerprint.stderr.contains("different dataset"),
                "\(fingerprint.stderr)")
        let tuned = dir.appendingPathComponent("tuned.h5").path
        let r = try TestSupport.framelab(["eval", "--dataset", dataset, "--detector", "opencv-haar", "--detector",
                                          "cascade:accuracy=low,scale=1.3", "--shard", "1/3", "--out", tuned, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let config = try merge([shards[0], tuned, shards[2]])
        #expect(config.status != 0 && config.stderr.contains(tuned) && config.stderr.contains("scale=1.3"), "\(config.stderr)")
        let four = dir.appendingPathComponent("four.h5").path
        try eval(dataset, ["--shard", "1/4", "--out", four])
        let counts = try merge([shards[0], four])
        #expect(counts.status != 0 && counts.stderr.contains("shard counts differ"), "\(counts.stderr)")
        for r in [twice, fingerprint, config, counts] { #expect(r.stderr.split(separator: "\n").count == 1) }
        // Nothing was written by the failed merges.
        #expect(!FileManager.default.fileExists(atPath: out))

        // --allow-partial merges what is there and records what is missing.
        let partial = try merge([shards[0], shards[2]], ["--allow-partial", "--run-id", "partial"])
        #expect(partial.status == 0 && partial.stderr.contains("1/3"), "\(partial.stderr)")
        let attrs = try TestSupport.python("""
            import sys; sys.path.insert(0, sys.argv[1]); import framelab_h5 as fl
            a = fl.attributes(sys.argv[2], "partial"); e = fl.events(sys.argv[2], "partial")
            print(a["missing_shards"], a["merged_shards"], list(e["kind"]))
            """, arguments: [TestSupport.packageRoot.appendingPathComponent("Notebooks").path, out])
        #expect(attrs.stdout.contains("['1/3'] ['0/3', '2/3'] ['merge-partial']"), "\(attrs.stdout) \(attrs.stderr)")
    }

    @Test func anInterruptedShardIsNamedAsMissing() throws {
        let (dir, _, shards, _) = try shardsAndSingle()
        // A shard whose only run never finished: status set as a killed writer leaves it.
        let script = """
            import h5py, sys
            with h5py.File(sys.argv[1], "r+") as f:
                for r in f["runs"].values(): r.attrs["status"] = "interrupted"
            """
        #expect(try TestSupport.python(script, arguments: [shards[1]]).status == 0)
        let r = try TestSupport.framelab(["merge", dir.appendingPathComponent("m.h5").path] + shards)
        #expect(r.status != 0 && r.stderr.contains("missing shard 1/3") && r.stderr.contains(shards[1])
                && r.stderr.contains("interrupted"), "\(r.stderr)")
    }

    @Test func shardComesFromSlurmOrKubernetesVariablesAndBadValuesAreNamed() throws {
        let dir = try TestSupport.makeTemporaryDirectory("shard-env")
        let dataset = try EvalRunComparison.sampleWithAFailure(in: dir)
        let viaSlurm = dir.appendingPathComponent("slurm.h5").path
        try eval(dataset, ["--out", viaSlurm], env: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"])
        let viaK8s = dir.appendingPathComponent("k8s.h5").path
        try eval(dataset, ["--out", viaK8s], env: ["JOB_COMPLETION_INDEX": "2", "FRAMELAB_SHARD_COUNT": "3"])
        let viaOption = dir.appendingPathComponent("option.h5").path
        try eval(dataset, ["--shard", "2/3", "--out", viaOption])
        let frames = try [viaSlurm, viaK8s, viaOption].map { path in
            try TestSupport.python("import h5py,sys; f=h5py.File(sys.argv[1]); r=f['runs'][list(f['runs'])[0]]; "
                                   + "print(r.attrs['shard'], list(r['frames']['index']))", arguments: [path]).stdout
        }
        #expect(frames[0].hasPrefix("2/3 [") && frames[0] == frames[1] && frames[1] == frames[2], "\(frames)")

        for (env, name) in [(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3"], "SLURM_ARRAY_TASK_ID=3"),
                            (["JOB_COMPLETION_INDEX": "0"], "FRAMELAB_SHARD_COUNT")] {
            let r = try TestSupport.framelab(["eval", "--dataset", dataset, "--detector", "opencv-haar", "--quiet"], environment: env)
            #expect(r.status != 0 && r.stderr.contains(name) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        let bad = try TestSupport.framelab(["eval", "--dataset", dataset, "--detector", "opencv-haar", "--shard", "3/3"])
        #expect(bad.status != 0 && bad.stderr.contains("'3/3'") && bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpDescribesShardMergeAndSubmit() throws {
        let eval = try TestSupport.framelab(["eval", "--help"])
        #expect(eval.stdout.contains("--shard") && eval.stdout.contains("--shard-count") && eval.stdout.contains("JOB_COMPLETION_INDEX"))
        let merge = try TestSupport.framelab(["merge", "--help"])
        for text in ["--allow-partial", "fingerprint", "never averaged", "OUT.h5"] { #expect(merge.stdout.contains(text), "\(text)") }
        let submit = try TestSupport.framelab(["submit", "slurm", "--help"])
        for text in ["--shards", "--partition", "--time", "--out-dir", "--dry-run", "--only", "afterok", "sbatch --array=K"] {
            #expect(submit.stdout.contains(text), "submit slurm --help lacks \(text)")
        }
    }
}
