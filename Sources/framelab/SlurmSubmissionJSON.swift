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
    let array_job: String?
    let merge_job: String?

    // By hand so the job ids of a dry run are null, not missing keys.
    func encode(to encoder: any Encoder) throws {
        enum Key: String, CodingKey {
            case dry_run, out_dir, shards, tasks, eval_script, merge_script, merged, logs, commands, array_job, merge_job
        }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(dry_run, forKey: .dry_run); try c.encode(out_dir, forKey: .out_dir)
        try c.encode(shards, forKey: .shards); try c.encode(tasks, forKey: .tasks)
        try c.encode(eval_script, forKey: .eval_script); try c.encode(merge_script, forKey: .merge_script)
        try c.encode(merged, forKey: .merged); try c.encode(logs, forKey: .logs); try c.encode(commands, forKey: .commands)
        try c.encode(array_job, forKey: .array_job); try c.encode(merge_job, forKey: .merge_job)
    }
}
