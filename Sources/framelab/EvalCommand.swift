import ArgumentParser
import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabElements
import FramelabPipeline
import FramelabRecording
import FramelabRuns
import Foundation

/// `framelab eval`: several detectors on the same dataset images, one comparison table.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate face detectors on an annotated dataset and compare them in one table.",
        discussion: """
            Datasets (--dataset FORMAT:PATH):
              \(DatasetFormat.allCases.map(\.usage).joined(separator: "\n  "))
            The bundled sample: csv:Datasets/sample/faces.csv (see Datasets/README.md).

            Detectors (--detector NAME[:key=value,...], repeatable; see `framelab detectors`):
              \(DetectorRegistry.builtIns.descriptors.map { "\($0.name) — \($0.summary)" }.joined(separator: "\n  "))
            Plugin detectors (listed by `framelab detectors`) are named the same way; --isolate runs each in a child process.

            Protocols (--protocol, docs/detection.md "Official protocols"):
              \(EvalProtocols.discussion)

            Saved predictions (--predictions [FORMAT:]PATH[:NAME], repeatable, mixable with --detector; docs/predictions.md):
              \(PredictionFormat.allCases.map(\.usage).joined(separator: "\n  "))
            The format follows the path (a folder: wider, .json: coco, another file: fddb) unless FORMAT: says it. \
            Each set is evaluated and recorded like a detector labelled predictions:NAME (NAME: the file or folder \
            name without extension), without timings (shown as —, null in JSON). Names find dataset images by \
            their name without extension, or by trailing path components when those single out one image; \
            COCO results go by image_id and need a coco: dataset. With only --predictions no image is decoded.

            Matching: detections in decreasing score order each take the unmatched face they overlap most \
            at IoU >= 0.5. A missing or corrupt image is recorded as a failed frame and the evaluation goes on. \
            With --out, every detection, the matching and the timings of every frame go into an HDF5 run \
            (docs/hdf5-schema.md), each image as soon as it is evaluated. SIGINT, SIGTERM, SIGHUP or SIGQUIT \
            stops after the images in progress: the scores cover the images done, the run is marked interrupted, \
            and the exit status is 130, 143, 129 or 131; a second signal stops at once. The first error writing \
            --out (a full disk) stops the evaluation with one line, the run marked failed. An evaluation in \
            which every image failed (none could be read) exits 1 after printing its scores, its record kept.
            """)

    @Option(name: .long, help: "The dataset, FORMAT:PATH (fddb, wider, dlib, csv or coco).",
            completion: ShellCompletion.datasets)
    var dataset: String

    @Option(name: .customLong("detector"), help: "A detector NAME[:key=value,...]; repeat to compare several.",
            completion: ShellCompletion.detectors)
    var detectors: [String] = []

    @Flag(name: .customLong("all-detectors"), help: ArgumentHelp(
        "Also every detector `framelab detectors` lists as available (built-in and plugin), with default parameters.",
        discussion: "Those whose default model files are missing are skipped with one warning line each."))
    var allDetectors = false

    @Option(name: .customLong("roc-dir"), help: ArgumentHelp(
        "With --protocol fddb: write each detector's DiscROC.txt and ContROC.txt, as FDDB's evaluation program does, into DIR/LABEL/.",
        valueName: "DIR"))
    var rocDirectory: String?

    @Option(name: .customLong("predictions"), help: ArgumentHelp(
        "Saved predictions to evaluate like a detector; repeat for several.", valueName: "[FORMAT:]PATH[:NAME]"))
    var predictions: [String] = []

    @Option(name: [.customLong("workers"), .customLong("threads")],
            help: "Frame-parallel workers; each evaluates whole images with its own detector instances (--threads is an alias).")
    var threads: Int = 1

    @Option(name: .long, help: "Evaluate only the first N images of the dataset.")
    var limit: Int?

    @Option(name: .long, help: "Record detections, matches and timings into this HDF5 file (runs are appended).",
            completion: ShellCompletion.recordings)
    var out: String?

    @Option(name: .customLong("run-id"), help: "Name of the run inside the HDF5 file (default: UTC time and a random suffix).")
    var runID: String?

    @Option(name: .long, help: ArgumentHelp(
        "Evaluate only shard K of N (0-based): images whose fnv1a64(name) mod N is K (docs/scale-out.md).",
        discussion: "Without it: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shard-count or FRAMELAB_SHARD_COUNT.",
        valueName: "K/N"))
    var shard: String?

    @Option(name: .customLong("shard-count"), help: "The number of shards N when only the index comes from the environment (JOB_COMPLETION_INDEX).")
    var shardCount: Int?

    @Option(name: .customLong("protocol"), help: ArgumentHelp(EvalProtocols.help, valueName: "NAME[,NAME…]"))
    var protocolNames: [String] = []

    @Flag(name: .long, help: "Print one JSON object instead of the table.")
    var json = false

    @Flag(name: .long, help: "Print no progress line and no library warnings (libpng, libjpeg, OpenCV).")
    var quiet = false

    @OptionGroup var plugins: PluginOptions
    @OptionGroup var isolation: IsolationFlags

    func validate() throws {
        if rocDirectory != nil, !((try? EvaluationProtocol.parseList(protocolNames)) ?? []).contains(.fddb) {
            throw usageError("--roc-dir needs --protocol fddb")
        }
        if detectors.isEmpty && predictions.isEmpty && !allDetectors {
            throw usageError("--detector, --all-detectors or --predictions is required (for example --detector opencv-haar)")
        }
        if threads < 1 || threads > Pipeline.maxWorkers {
            throw usageError("--workers must be from 1 to \(Pipeline.maxWorkers), got \(threads)")
        }
        if let limit, limit < 1 { throw usageError("--limit must be at least 1, got \(limit)") }
        if let shardCount, shardCount < 1 { throw usageError("--shard-count must be at least 1, got \(shardCount)") }
        if let runID, runID.isEmpty || runID.contains("/") {
            throw usageError("--run-id must be non-empty and contain no '/', got '\(runID)'")
        }
        do { _ = try EvaluationProtocol.parseList(protocolNames) } catch { throw usageError("\(error)") }
    }

    func run() throws {
        LibraryMessages.isSilenced = quiet
        let sharding: EvalSharding
        let evaluator: DatasetEvaluator
        let protocols: EvalProtocols
        var data: FaceDataset
        var pluginAttributes: [String: AttributeValue] = [:]
        var pluginFiles: RunElements.PluginFiles = [:]
        var registry = DetectorRegistry.builtIns
        let saved: EvalPredictions
        do {
            protocols = try EvalProtocols(EvaluationProtocol.parseList(protocolNames))
            data = try FaceDataset.load(dataset)
            if let limit { data.images = Array(data.images.prefix(limit)) }
            sharding = try EvalSharding.select(&data, option: shard, countOption: shardCount)
            var specs = try detectors.map { try ElementSpec(parsing: $0) }
            if allDetectors { specs += EvalAllDetectors.available(plugins: plugins, besides: specs) }
            // YuNet needs a model file the user brings; without one it is skipped, not fatal.
            let withoutModel = specs.filter { $0.name == "opencv-yunet" && !$0.arguments.contains { $0.key == "model" } }
            if !withoutModel.isEmpty && withoutModel.count < specs.count {
                printToStandardError("framelab: warning: skipping opencv-yunet: no model given "
                                     + "(--detector opencv-yunet:model=face_detection_yunet_2022mar.onnx)")
                specs.removeAll { s in withoutModel.contains(s) }
            }
            let pluginSetup = try PluginRunSetup(filters: [], detectors: specs.map(\.description), plugins: plugins,
                                                 isolation: isolation)
            registry = pluginSetup.detectorRegistry
            evaluator = try DatasetEvaluator(dataset: data, detectors: specs, registry: registry,
                                             threads: threads)
            saved = try EvalPredictions(predictions, whole: sharding.whole, positions: sharding.positions,
                                        detectorLabels: specs.map(\.description))
            pluginAttributes = pluginSetup.attributes
            pluginFiles = pluginSetup.pluginFiles
        } catch {
            throw failure(error)
        }
        let id = runID ?? RunIdentifier.make()
        let recorder: EvalRunWriter?
        let labels = evaluator.specs.indices.map { evaluator.label($0) } + saved.labels
        do {
            let attributes = EvalRunWriter.attributes(context: commandContext, dataset: dataset, labels: labels, workers: threads,
                                                      protocols: protocols.protocols)
                .merging(pluginAttributes) { $1 }
                .merging(try sharding.attributes(specs: evaluator.specs, registry: registry)) { $1 }
            let elements = try RunElements.detectorRows(evaluator.specs, registry: registry, firstStage: 0,
                                                        plugins: pluginFiles)
                + saved.elements(firstStage: evaluator.specs.count)
            recorder = try out.map {
                try RecordingVetting.vet($0)
                return try EvalRunWriter(path: $0, runID: id, attributes: attributes, labels: labels, dataset: data,
                                  images: sharding.wholePaths, frameIndices: sharding.positions, elements: elements)
            }
        } catch {
            throw failure(error)
        }
        if let summary = sharding.summary, !quiet { printToStandardError(summary) }

        let progress = EvalProgress(enabled: !quiet)
        // Each image is recorded as soon as every detector is done with it (the writer flushes
        // every 0.5 s), so SIGINT/SIGTERM or a crash keep what was evaluated.
        let savedFrames = saved.frames(for: data)
        let writer = recorder?.writer
        let interrupt = InterruptHandler(stop: { evaluator.requestStop() }, abandon: { writer?.abandon() },
                                         stuck: { IsolatedWorkers.killStuck() })
        defer { interrupt.cancel() }
        // The first error writing the record stops the evaluation (a full disk fails every write after it).
        writer?.onWriteError { _ in evaluator.requestStop() }
        let evaluation: DatasetEvaluator.Evaluation
        do {
            evaluation = try evaluator.run(progress: { progress.update(done: $0, total: $1) }) { position, results in
                recorder?.recordImage(position, results + savedFrames.map { $0[position] })
            }
        } catch {
            progress.finish()
            try? recorder?.finish(status: "failed: \((error as? FramelabError)?.message ?? "\(error)")")
            throw failure(error)
        }
        progress.finish()
        // Detectors finish images in dataset order: a stopped evaluation has done the first `count`.
        let count = evaluator.specs.isEmpty ? data.images.count : evaluation.frames.first?.count ?? 0
        if evaluator.specs.isEmpty {
            for position in 0..<count { recorder?.recordImage(position, savedFrames.map { $0[position] }) }
        }
        var evaluated = data
        evaluated.images = Array(data.images.prefix(count))
        let result = DatasetEvaluator.Evaluation(frames: evaluation.frames + savedFrames.map { Array($0.prefix(count)) },
                                                 wallSeconds: evaluation.wallSeconds)
        let rows = result.frames.indices.map { DetectorSummary(name: labels[$0], frames: result.frames[$0]) }
        let protocolScores: [[ProtocolScores]]
        do {
            protocolScores = try protocols.score(images: evaluated.images, frames: result.frames)
            recorder?.recordScores(summaries: rows, protocolScores: protocolScores)
            try recorder?.finish(status: evaluator.wasStopped ? "interrupted" : "completed", wallSeconds: result.wallSeconds)
            if let rocDirectory { try FDDBROCFiles.write(protocolScores, labels: labels, into: rocDirectory) }
        } catch {
            throw failure(error)
        }

        let faces = evaluated.faceCount
        if json {
            try printJSON(EvalReport.document(rows, dataset: dataset, images: count, faces: faces, workers: threads,
                                              wallSeconds: result.wallSeconds, out: out, runID: out == nil ? nil : id,
                                              protocolScores: protocolScores))
        } else {
            if evaluator.wasStopped { print("stopped after \(count) of \(data.images.count) images: scores over those") }
            print(EvalReport.table(rows, dataset: dataset, images: count, faces: faces, workers: threads,
                                   wallSeconds: result.wallSeconds))
            let protocolTable = EvalProtocols.table(protocolScores, labels: rows.map(\.name))
            if !protocolTable.isEmpty { print(protocolTable) }
            if let out { print("recorded run '\(id)' in \(out)") }
        }
        for (k, frames) in result.frames.enumerated() {
            for f in frames where f.failure != nil {
                printToStandardError("framelab: warning: \(labels[k]): image \(f.index) failed: \(f.failure!)")
            }
        }
        // Stopped by a signal: the record is kept and the exit says so, as a shell reports a killed process.
        if evaluator.wasStopped, let signal = interrupt.received { throw ExitCode(128 + signal) }
        // An evaluation in which no image could be read or detected in is no success either.
        let attempted = result.frames.joined()
        if !attempted.isEmpty && attempted.allSatisfy({ $0.failure != nil }) && !evaluator.wasStopped {
            throw failure(FramelabError(.badInput, "dataset '\(dataset)': every one of its \(count) images failed"
                                        + (out.map { " (recorded in \($0))" } ?? "")))
        }
    }
}
