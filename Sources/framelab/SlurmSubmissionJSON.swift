import FramelabCore
/// `framelab submit slurm --json`: what was (or, with --dry-run, would be) submitted.
struct SlurmSubmissionJSON: Encodable {
    let dry_run: Bool
    let out_dir: String
    let shards: Int
    /// The array tasks submitted: every shard, or those --only named.
    let tasks: [Int]
    let eval_script: String
    let merge_script: String
    let merged: String
    let logs: String
    /// The sbatch command lines, in order; the merge job's names "<array job id>" on a dry run.
    let commands: [[String]]
    /// Job ids sbatch printed; null on a dry run.
    @NullWhenAbsent var array_job: String?
    @NullWhenAbsent var merge_job: String?
}
