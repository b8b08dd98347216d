import ArgumentParser
import FramelabCore
import FramelabElements
import FramelabEvaluation
import FramelabFilters
import FramelabPipeline
import FramelabRecording
import FramelabRuns
import FramelabSources
import Foundation

/// `framelab run`: frames from a source through filters, every stage timed, optionally
/// recorded as a run in an HDF5 file.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run frames from a source through filter stages, timing every stage.",
        discussion: """
            Source specs:
              \(SourceRegistry.builtIns.schemes.map(\.usage).joined(separator: "\n  "))

            Filters (see `framelab filters`): --filter NAME[:key=value,...], repeatable, applied in order. \
            --path picks the built-ins' implementation: simd (default), scalar, opencv, or recipe, which \
            fuses consecutive built-in filters into one pass with rows split across --threads. \
            Plugin filters (see `framelab plugins list`) are used the same way; --isolate runs them in a child process. \
            Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGQUIT stops the run after the frame in progress; what was \
            recorded is kept (status interrupted) and the exit code is 130 (143, 129, 131). A second signal \
            stops at once, the record still readable. A run whose every frame failed exits 1; the first error \
            writing --out (a full disk) stops the run with one line, its record marked failed. \
            --json prints the summary `report --json` gives a run ({"id", "source", "policy", "status", "frames", \
            "processed", "dropped", "failed", "fps", "stages": [{"name", "frames", "p50_ms", "p95_ms", "p99_ms", \
            "max_ms", "capacity_fps", "over_budget"}], "end_to_end", "fits_fps", "latency_p50_ms", …}) with "file" \
            (the --out file or null), "failure_reasons", "faces_found" (per detector stage), "exit_reason" \
            ("completed", "interrupted", "every frame failed" or "failed") and "exit_code", also when the run fails \
            or is stopped (an error found before the first frame prints only its one line). \
            Live runs: SIGUSR1 switches a camera to its next listed device, SIGUSR2 saves a snapshot \
            (with --snapshot). Cameras, formats and their errors: docs/cameras.md.
            """)

    @Option(name: .long, help: "Where frames come from, e.g. synthetic:640x480@30 or video:clip.mp4?pace=realtime.",
            completion: ShellCompletion.sources)
    var source: String

    @Option(name: .customLong("filter"), help: "A filter stage NAME[:key=value,...]; repeat for a chain.",
            completion: ShellCompletion.filters)
    var filters: [String] = []

    @Option(name: .long, help: "Built-in filter path: simd (default), scalar, recipe (fused) or opencv.",
            completion: ShellCompletion.filterPaths)
    var path: String = FilterPath.default.rawValue

    @Option(name: .long, help: "Threads a recipe splits rows across; defaults to the core count.")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(name: .customLong("detector"), help: "A face detector stage NAME[:key=value,...] after the filters (see `framelab detectors`); repeatable.",
            completion: ShellCompletion.detectors)
    var detectors: [String] = []

    @Option(name: .long, help: "Stop after this many processed frames (dropped frames do not count).")
    var frames: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Frames processed at once, each by a worker with its own instance of every stage (default 1).",
        discussion: "Results are delivered and recorded in frame order; under drop-late the newest frame still wins."))
    var workers: Int = 1

    @Flag(name: .long, help: "Run each stage on its own thread with a bounded queue before it (stage-parallel).")
    var pipelining = false

    @Option(name: .long, help: "keep-all or drop-late (default: drop-late for live sources, keep-all for files).",
            completion: ShellCompletion.policies)
    var policy: String?

    @Option(name: .long, help: "Record the run into this HDF5 file (created if missing; runs are appended).",
            completion: ShellCompletion.recordings)
    var out: String?

    @Option(name: .customLong("run-id"), help: "Name of the run inside the HDF5 file (default: UTC time and a random suffix).")
    var runID: String?

    @Option(name: .customLong("queue"), help: "Frames that may wait between source and stages under keep-all.")
    var queueCapacity: Int = Pipeline.defaultQueueCapacity

    @Flag(name: .long, help: "Print no progress line, no summary and no library warnings (libpng, libjpeg, OpenCV); errors still go to standard error.")
    var quiet = false

    @Flag(name: .long, help: "Print the run's summary as one JSON object on standard output (progress stays on standard error).")
    var json = false

    @OptionGroup var plugins: PluginOptions
    @OptionGroup var isolation: IsolationFlags
    @OptionGroup var live: LiveOptions

    func validate() throws {
        if let frames, frames < 1 { throw usageError("--frames must be at least 1, got \(frames)") }
        if let policy, DropPolicy(rawValue: policy) == nil {
            throw usageError("--policy must be keep-all or drop-late, got '\(policy)'")
        }
        if (try? FilterPath(parsing: path)) == nil {
            throw usageError("--path must be one of \(FilterPath.allCases.map(\.rawValue).joined(separator: ", ")), got '\(path)'")
        }
        if threads < 1 { throw usageError("--threads must be at least 1, got \(threads)") }
        if workers < 1 || workers > Pipeline.maxWorkers {
            throw usageError("--workers must be from 1 to \(Pipeline.maxWorkers), got \(workers)")
        }
        if workers > 1 && pipelining { throw usageError("--workers and --pipelining cannot be combined: pick one") }
        if workers > 1 && live.tune != nil { throw usageError("--tune needs --workers 1 (a change reaches one instance per stage)") }
        if queueCapacity < 1 { throw usageError("--queue must be at least 1, got \(queueCapacity)") }
        if let runID, runID.isEmpty || runID.contains("/") {
            throw usageError("--run-id must be non-empty and contain no '/', got '\(runID)'")
        }
        try live.validate()
    }

    func run() throws {
        LibraryMessages.isSilenced = quiet
        let controls = LiveControls()
        defer { controls.cancel() }
        // Everything the user typed is checked before any frame is read or file written.
        let stages: [any PipelineStage]
        let source: any FrameSource
        let pluginSetup: PluginRunSetup
        let elements: [ElementRow]
        do {
            pluginSetup = try PluginRunSetup(filters: filters, detectors: detectors, plugins: plugins, isolation: isolation)
            let registry = pluginSetup.registry  // built-ins and plugins, one naming scheme
            let specs = try filters.map { try ElementSpec(parsing: $0) }
            let filterStages = try registry.chainFactories(specs, path: FilterPath(parsing: path), threads: threads).map {
                FilterStage(try $0(), makeFilter: $0)
            }
            stages = filterStages + (try DetectorStage.make(detectors, firstPosition: filterStages.count,
                                                            registry: pluginSetup.detectorRegistry))
            elements = try RunElements.filterRows(specs, registry: registry,
                                                  stages: try registry.stageIndices(specs, path: FilterPath(parsing: path)),
                                                  plugins: pluginSetup.pluginFiles)
                + RunElements.detectorRows(try detectors.map { try ElementSpec(parsing: $0) },
                                           registry: pluginSetup.detectorRegistry, firstStage: filterStages.count,
                                           plugins: pluginSetup.pluginFiles)
            source = try SourceRegistry.builtIns.open(self.source)
        } catch {
            throw failure(error)
        }
        let tuning: LiveTuning?
        do {
            tuning = try live.tune.map { try LiveTuning(path: $0, stages: stages) }
        } catch {
            throw failure(error)
        }
        defer { tuning?.stop() }
        let pipeline = Pipeline(source: source, stages: stages, policy: policy.flatMap(DropPolicy.init),
                                maxFrames: frames, queueCapacity: queueCapacity, maxFPS: live.maxFPS,
                                workers: workers, pipelining: pipelining)
        if let live = source as? any LiveSource { printToStandardError("framelab: camera \(live.negotiation)") }
        let stageNames = stages.map(\.name)

        let id = runID ?? RunIdentifier.make()
        let recorder: RunRecorder?
        do {
            recorder = try out.map { path in
                try RecordingVetting.vet(path)
                return try RunRecorder(path: path, id: id,
                                attributes: runAttributes(source: source, pipeline: pipeline).merging(pluginSetup.attributes) { $1 },
                                stages: stages, source: source, elements: elements)
            }
        } catch {
            throw failure(error)
        }

        let writer = recorder?.writer
        let interrupt = InterruptHandler(stop: { pipeline.requestStop() }, abandon: { writer?.abandon() },
                                         stuck: { IsolatedWorkers.killStuck() })
        defer { interrupt.cancel() }
        // The first error writing the record stops the run: a full disk fails every write after it.
        writer?.onWriteError { _ in pipeline.requestStop() }
        var tally = RunTally(stageCount: stages.count)
        let progress = ProgressLine(total: frames ?? source.expectedFrameCount, enabled: !quiet)
        controls.attach(source as? any LiveSource)
        let outputs = live.makeOutputs(source: source, stageNames: stageNames, controls: controls,
                                       stop: { pipeline.requestStop() })

        var runError: Error?
        do {
            try pipeline.run { event in
                recorder?.record(event)
                tally.add(event)
                progress.update(tally)
                outputs.handle(event)
                for note in outputs.takeNotes() { recorder?.note(kind: note.kind, detail: note.detail, frame: note.frame) }
                for change in tuning?.takeApplied() ?? [] { recorder?.note(kind: "param", detail: change.change, frame: change.frame) }
            }
        } catch {
            runError = error
        }
        progress.finish(tally)
        outputs.finish()

        let status: String
        let everyFrameFailed = tally.processed == 0 && tally.failed > 0
        if runError == nil, let writeError = writer?.writeError { runError = writeError }
        if let runError {
            status = "failed: \((runError as? FramelabError)?.message ?? "\(runError)")"
        } else if pipeline.wasStopped {
            status = "interrupted"
        } else {
            status = everyFrameFailed ? "failed: every one of its \(tally.failed) frames failed" : "completed"
        }
        do {
            try recorder?.finish(status: status)
        } catch {
            if runError == nil { runError = error }
        }

        let summary = tally.summary(id: id, source: self.source, policy: pipeline.policy.rawValue, status: status,
                                    stageNames: stageNames)
        let recordedIn = writer?.writeError == nil ? out : nil
        // Exit codes tell the truth: a run a signal stopped (its record kept) and a run in
        // which no frame could be processed are not successes.
        let exitReason: String, exitCode: Int32
        if runError != nil {
            (exitReason, exitCode) = ("failed", 1)
        } else if let signal = interrupt.received {
            (exitReason, exitCode) = ("interrupted", 128 + signal)
        } else if everyFrameFailed && !pipeline.wasStopped {
            (exitReason, exitCode) = ("every frame failed", 1)
        } else {
            (exitReason, exitCode) = ("completed", 0)
        }
        if json {
            var faces: [String: Int] = [:]
            for (i, stage) in stages.enumerated() where stage is DetectorStage { faces[stage.name] = tally.facesFound[i] ?? 0 }
            try printJSON(RunResultJSON(summary: summary, file: recordedIn, failure_reasons: tally.failureReasons,
                                        faces_found: faces, exit_reason: exitReason, exit_code: exitCode))
        } else if !quiet {
            print(RunSummaryText.afterRun(summary, failureReasons: tally.failureReasons))
            for (i, stage) in stages.enumerated() where stage is DetectorStage {
                print("\(stage.name): \(tally.facesFound[i] ?? 0) faces found")
            }
            if let recordedIn { print("recorded run '\(id)' in \(recordedIn) (status: \(status))") }
        }
        if let runError { throw failure(runError) }
        if exitReason == "every frame failed" {
            throw failure(FramelabError(.badInput, "source '\(self.source)': every one of its \(tally.failed) frames failed"
                                        + (out.map { " (recorded in \($0))" } ?? "")))
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    private func runAttributes(source: any FrameSource, pipeline: Pipeline) -> [String: AttributeValue] {
        var attributes = commandContext
        attributes.merge([
            "kind": .string("run"),
            "source": .string(self.source),
            "policy": .string(pipeline.policy.rawValue),
            "filters": .strings(filters),
            "filter_path": .string(path),
            "threads": .int(Int64(threads)),
            "workers": .int(Int64(workers)),
            "pipelining": .int(pipelining ? 1 : 0),
            "detectors": .strings(detectors),
            "queue_capacity": .int(Int64(pipeline.policy == .dropLate ? 1 : queueCapacity)),
        ]) { $1 }
        if let frames { attributes["frames_requested"] = .int(Int64(frames)) }
        if let fps = source.nominalFPS { attributes["source_fps"] = .double(fps) }
        if let live = source as? any LiveSource { attributes["camera_negotiation"] = .string(live.negotiation) }
        if let maxFPS = live.maxFPS { attributes["max_fps"] = .double(maxFPS) }
        return attributes
    }
}
