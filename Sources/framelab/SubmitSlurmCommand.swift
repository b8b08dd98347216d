import ArgumentParser
import FramelabCore
import FramelabRuns
import Foundation

/// `framelab submit slurm`: an sbatch array of eval shards plus a merge job that waits for them.
struct SubmitSlurmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slurm",
        abstract: "Run `framelab eval` as a Slurm job array of N shards and merge the shards when all succeeded.",
        discussion: """
            Writes DIR/eval.sbatch (an array job: task K runs `framelab eval ARGS --shard K/N --out DIR/shard-K.h5`) \
            and DIR/merge.sbatch (`framelab merge DIR/merged.h5 DIR/shard-0.h5 …`), submits the first with \
            `sbatch --parsable` and the second with --dependency=afterok:<array job> --kill-on-invalid-dep=yes \
            (so Slurm cancels the merge job itself when a shard fails), and prints both job ids. \
            Logs go to DIR/logs/shard-K.log and DIR/logs/merge.log. Scripts call this framelab binary by its \
            absolute path and run in the current directory, so relative dataset paths work on the nodes \
            (the directories must be shared with them). \
            A failed shard can be resubmitted alone: --only K (with the same --out-dir and ARGS) submits task K \
            and a new merge job after it; or `sbatch --array=K DIR/eval.sbatch` by hand. \
            --json prints {"dry_run", "out_dir", "shards", "tasks", "eval_script", "merge_script", "merged", "logs", \
            "commands" (the sbatch command lines), "array_job", "merge_job" (job ids; null on --dry-run)}; \
            with --dry-run --json the scripts are not printed. \
            Example: framelab submit slurm --shards 4 --out-dir /shared/e1 -- eval --dataset wider:/data/WIDER_val \\
                     --detector cascade --detector opencv-haar
            """)

    @Option(name: .long, help: "Number of shards N (array tasks 0..N-1).")
    var shards: Int

    @Option(name: .long, help: "Slurm partition (sbatch --partition); default: the cluster's default.")
    var partition: String?

    @Option(name: .long, help: "Time limit per task and for the merge (sbatch --time, e.g. 30:00 or 1-00:00:00).")
    var time: String?

    @Option(name: .customLong("out-dir"), help: "Where scripts, shard files, logs and merged.h5 go (default: ./framelab-shards-<UTC time>).")
    var outDir: String?

    @Option(name: .long, help: "Submit only array task K (repeatable; a failed shard's resubmission), then a new merge job.")
    var only: [Int] = []

    @Flag(name: .customLong("dry-run"), help: "Print the two scripts and the sbatch commands; submit nothing, write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    @Argument(parsing: .postTerminator, help: "After --: eval and its arguments (without --shard, --shard-count, --out).")
    var command: [String] = []

    func validate() throws {
        if shards < 1 { throw usageError("--shards must be at least 1, got \(shards)") }
        guard command.first == "eval" else {
            throw usageError("expected `-- eval ARGS…` after the options, got '\(command.joined(separator: " "))'")
        }
        for flag in ["--shard", "--shard-count", "--out"] where command.contains(where: { $0 == flag || $0.hasPrefix(flag + "=") }) {
            throw usageError("eval argument \(flag) is set by submit slurm (shard K/N and DIR/shard-K.h5); leave it out")
        }
        for k in only where !(0..<shards).contains(k) {
            throw usageError("--only \(k): not a shard of 0...\(shards - 1)")
        }
        if !only.isEmpty && outDir == nil { throw usageError("--only needs --out-dir: the folder of the submission it completes") }
        if let outDir, outDir.contains(where: \.isWhitespace) {
            throw usageError("--out-dir '\(outDir)' contains whitespace, which #SBATCH --output lines cannot hold")
        }
        do { _ = try EvalCommand.parse(Array(command.dropFirst())) } catch {
            // An empty message: eval's own validation already printed its one-line error.
            guard let line = EvalCommand.message(for: error).split(separator: "\n").first else {
                throw EvalCommand.exitCode(for: error)
            }
            throw usageError("eval arguments: \(line)")
        }
    }

    func run() throws {
        let eval = try EvalCommand.parse(Array(command.dropFirst()))
        let cwd = FileManager.default.currentDirectoryPath
        let dir = Self.absolute(outDir ?? "framelab-shards-" + RunIdentifier.make(), cwd)
        let scripts = SlurmScripts(framelab: Self.executablePath, workingDirectory: cwd, outDir: dir, shards: shards,
                                   evalArguments: Array(command.dropFirst()), cpusPerTask: eval.threads,
                                   partition: partition, time: time)
        let array = only.isEmpty ? nil : only.sorted().map(String.init).joined(separator: ",")
        let evalSubmit = ["sbatch", "--parsable"] + (array.map { ["--array=\($0)"] } ?? []) + [scripts.evalScriptPath]
        func result(arrayJob: String?, mergeJob: String?) -> SlurmSubmissionJSON {
            SlurmSubmissionJSON(dry_run: dryRun, out_dir: dir, shards: shards, tasks: only.isEmpty ? Array(0..<shards) : only.sorted(),
                                eval_script: scripts.evalScriptPath, merge_script: scripts.mergeScriptPath,
                                merged: scripts.mergedPath, logs: scripts.logDir,
                                commands: [evalSubmit, ["sbatch"] + Self.mergeOptions(after: arrayJob ?? "<array job id>")
                                           + [scripts.mergeScriptPath]],
                                array_job: arrayJob, merge_job: mergeJob)
        }
        if dryRun && json {
            try printJSON(result(arrayJob: nil, mergeJob: nil))
            return
        }
        if dryRun {
            print("# \(scripts.evalScriptPath)\n\(scripts.evalScript)")
            print("# \(scripts.mergeScriptPath)\n\(scripts.mergeScript)")
            print("# submit: " + evalSubmit.joined(separator: " "))
            print("# then:   sbatch " + Self.mergeOptions(after: "<array job id>").joined(separator: " ") + " \(scripts.mergeScriptPath)")
            return
        }
        do {
            let sbatch = try Self.findSbatch()
            try FileManager.default.createDirectory(atPath: scripts.logDir, withIntermediateDirectories: true)
            try scripts.evalScript.write(toFile: scripts.evalScriptPath, atomically: true, encoding: .utf8)
            try scripts.mergeScript.write(toFile: scripts.mergeScriptPath, atomically: true, encoding: .utf8)
            let arrayJob = try Self.submit(sbatch, Array(evalSubmit.dropFirst()))
            let mergeJob = try Self.submit(sbatch, Self.mergeOptions(after: arrayJob) + [scripts.mergeScriptPath])
            if json {
                try printJSON(result(arrayJob: arrayJob, mergeJob: mergeJob))
                return
            }
            print("eval array job \(arrayJob): shard\(array == nil ? "s 0-\(shards - 1)" : " \(array!)") of \(shards) -> \(dir)/shard-K.h5")
            print("merge job \(mergeJob): after \(arrayJob) succeeds -> \(scripts.mergedPath)")
            print("logs: \(scripts.logDir); resubmit a failed shard K: sbatch --array=K \(scripts.evalScriptPath) "
                  + "(or this command with --only K --out-dir \(dir))")
        } catch let error as FramelabError {
            throw failure(error)
        } catch {
            throw failure(FramelabError(.io, "cannot write the scripts in '\(dir)': \(error.localizedDescription)"))
        }
    }

    /// The merge job's sbatch options: it runs once every task of the array job succeeded,
    /// and Slurm cancels it when one fails (instead of leaving it pending for ever with
    /// reason DependencyNeverSatisfied).
    static func mergeOptions(after arrayJob: String) -> [String] {
        ["--parsable", "--dependency=afterok:\(arrayJob)", "--kill-on-invalid-dep=yes"]
    }

    static func absolute(_ path: String, _ cwd: String) -> String {
        let joined = path.hasPrefix("/") ? path : cwd + "/" + path
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }

    /// This binary, by absolute path, so batch scripts run the same framelab on the nodes.
    static var executablePath: String {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return target }
        return absolute(CommandLine.arguments[0], FileManager.default.currentDirectoryPath)
    }

    static func findSbatch() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/sbatch") {
            return "\(dir)/sbatch"
        }
        throw FramelabError(.unsupported, "sbatch not found in PATH: submit slurm needs Slurm's client tools "
                            + "(Debian: slurm-client), or use --dry-run to print the scripts")
    }

    /// Runs sbatch; returns the job id it printed (`--parsable`: "ID" or "ID;CLUSTER").
    static func submit(_ sbatch: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sbatch)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw FramelabError(.io, "cannot run '\(sbatch)': \(error.localizedDescription)")
        }
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let id = output.split(separator: "\n").first.map { String($0.split(separator: ";").first ?? $0) } ?? ""
        guard process.terminationStatus == 0, !id.isEmpty, id.allSatisfy(\.isNumber) else {
            let why = errors.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw FramelabError(.io, "sbatch \(arguments.joined(separator: " ")) failed: \(why)")
        }
        return id
    }
}
