import Foundation

/// The two batch scripts of `framelab submit slurm`: an array job whose task K evaluates
/// shard K, and the merge job that runs after every task succeeded.
struct SlurmScripts {
    var framelab: String
    var workingDirectory: String
    var outDir: String
    var shards: Int
    var evalArguments: [String]
    var cpusPerTask: Int
    var partition: String?
    var time: String?

    var evalScriptPath: String { outDir + "/eval.sbatch" }
    var mergeScriptPath: String { outDir + "/merge.sbatch" }
    var logDir: String { outDir + "/logs" }
    var mergedPath: String { outDir + "/merged.h5" }
    func shardPath(_ k: String) -> String { outDir + "/shard-\(k).h5" }

    private var common: [String] {
        (partition.map { ["#SBATCH --partition=\($0)"] } ?? []) + (time.map { ["#SBATCH --time=\($0)"] } ?? [])
    }

    var evalScript: String {
        let command = [framelab, "eval"] + evalArguments
        return ([
            "#!/bin/bash",
            "# Written by `framelab submit slurm`: array task K evaluates shard K of \(shards) (docs/scale-out.md).",
            "# Resubmit one failed shard K alone: sbatch --array=K \(evalScriptPath)",
            "#SBATCH --job-name=framelab-eval",
            "#SBATCH --array=0-\(shards - 1)",
            "#SBATCH --ntasks=1",
            "#SBATCH --cpus-per-task=\(cpusPerTask)",
            "#SBATCH --output=\(logDir)/shard-%a.log",
        ] + common + [
            "set -euo pipefail",
            "cd \(Self.quote(workingDirectory))",
            "exec " + command.map(Self.quote).joined(separator: " ")
                + " --shard \"$SLURM_ARRAY_TASK_ID/\(shards)\" --out \(Self.quote(outDir))/shard-\"$SLURM_ARRAY_TASK_ID\".h5",
        ]).joined(separator: "\n") + "\n"
    }

    var mergeScript: String {
        let command = [framelab, "merge", mergedPath] + (0..<shards).map { shardPath(String($0)) }
        return ([
            "#!/bin/bash",
            "# Written by `framelab submit slurm`: merges the \(shards) shard files once every shard succeeded.",
            "#SBATCH --job-name=framelab-merge",
            "#SBATCH --ntasks=1",
            "#SBATCH --output=\(logDir)/merge.log",
        ] + common + [
            "set -euo pipefail",
            "cd \(Self.quote(workingDirectory))",
            "exec " + command.map(Self.quote).joined(separator: " "),
        ]).joined(separator: "\n") + "\n"
    }

    /// Single-quoted for the shell when it needs quoting.
    static func quote(_ s: String) -> String {
        let plain = !s.isEmpty && s.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=,+@%".contains($0) }
        return plain ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
