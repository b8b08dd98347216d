import FramelabCore
import Foundation

/// Where a shard comes from when `--shard` is not given: the scheduler's environment.
///
/// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (both set by
///   sbatch for every array task).
/// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with the count from `--shard-count`
///   or `FRAMELAB_SHARD_COUNT` (Kubernetes does not export `completions` to the pod).
///
/// Neither present: no sharding. A variable that is set but not a usable number is an
/// error naming the variable.
public enum ShardEnvironment {
    public static let slurmIndex = "SLURM_ARRAY_TASK_ID"
    public static let slurmCount = "SLURM_ARRAY_TASK_COUNT"
    public static let kubernetesIndex = "JOB_COMPLETION_INDEX"
    public static let countVariable = "FRAMELAB_SHARD_COUNT"

    /// The shard: `--shard` text first, else the environment; nil when nothing asks for one.
    /// `countOption` is `--shard-count`.
    public static func resolve(option: String?, countOption: Int?, environment: [String: String]) throws -> Shard? {
        if let option {
            let shard = try Shard(parsing: option)
            if let countOption, countOption != shard.count {
                throw FramelabError(.badInput, "--shard '\(option)' says \(shard.count) shards but --shard-count is \(countOption)")
            }
            return shard
        }
        if let k = environment[slurmIndex] {
            let index = try number(k, slurmIndex)
            let count: Int
            if let n = environment[slurmCount] { count = try number(n, slurmCount) }
            else if let countOption { count = countOption }
            else {
                throw FramelabError(.badInput, "\(slurmIndex)=\(k) is set but \(slurmCount) is not: "
                                    + "pass --shard K/N or --shard-count N")
            }
            return try shard(index, count, "\(slurmIndex)=\(k)")
        }
        if let k = environment[kubernetesIndex] {
            let index = try number(k, kubernetesIndex)
            let count: Int
            if let countOption { count = countOption }
            else if let n = environment[countVariable] { count = try number(n, countVariable) }
            else {
                throw FramelabError(.badInput, "\(kubernetesIndex)=\(k) is set but the shard count is not: "
                                    + "pass --shard-count N or set \(countVariable) (the Job's completions)")
            }
            return try shard(index, count, "\(kubernetesIndex)=\(k)")
        }
        if let countOption {
            throw FramelabError(.badInput, "--shard-count \(countOption) needs a shard index: "
                                + "\(slurmIndex), \(kubernetesIndex) or --shard K/N")
        }
        return nil
    }

    private static func number(_ text: String, _ variable: String) throws -> Int {
        guard let v = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FramelabError(.badInput, "\(variable)='\(text)' is not a whole number")
        }
        return v
    }

    private static func shard(_ index: Int, _ count: Int, _ source: String) throws -> Shard {
        do { return try Shard(index: index, count: count) } catch let error as FramelabError {
            throw FramelabError(.badInput, "\(source): \(error.message)")
        }
    }
}
