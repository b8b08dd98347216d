import ArgumentParser
import FramelabCore
import FramelabCV
import FramelabFilters
import FramelabPluginHost
import FramelabRecording
import FramelabRuns
import Foundation

/// `framelab bench filters`: built-in filters on every path, ratios, chain and frame budget.
struct BenchFiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "Time built-in filters on the scalar, SIMD, recipe and OpenCV paths on the same frames.",
        discussion: """
            For each filter, path and size: warm-up runs, then repeated runs; prints min and median ms and \
            ratios against memcpy of the same bytes, the OpenCV reference and the scalar path (OpenCV is \
            pinned to one thread). Then the chain sepia → hue → colorControls → gamma eagerly and as one \
            fused recipe (1 and 2 threads, and --threads), at 720p, 1080p and 4K, a frame-budget table \
            (which paths fit 24, 30 and 60 fps) and the speed goals of the kernel level (AVX-512 and \
            AVX2 goals; the baseline level's lines are measured only, marked [info]) checked at 1920x1080; \
            the cases the goals compare are timed side by side, in alternating rounds, so a change in the \
            machine's speed during the run falls on all of them alike, and those timings replace the \
            table's rows (marked *), so the table and the goal lines quote the same numbers. A ratio \
            compares two minimums over the same number of runs: the case timed more often gives the \
            minimum expected of as many runs as the other had. \
            The plugin path times plugin filters (found on the usual plugin search path, see \
            --plugin-path) in process with default parameters, on the same frames, next to the built-ins: \
            a --filter naming a plugin filter is timed there; with --paths ...,plugin and no plugin named, \
            every plugin filter that takes the frames' format is. \
            --format bgr8 times 3-byte BGR frames (the same picture without alpha) instead of BGRA: \
            what a video file or camera decoded by OpenCV gives; filters that take only BGRA are listed \
            as not measured, and the goal lines are printed for information. \
            The SIMD and recipe paths run the kernels of one instruction-set level: the best this CPU has, \
            FRAMELAB_ISA, or --isa; --isa all runs everything at each level this CPU has, then times the \
            level-dependent cases (each filter on SIMD, the chain eagerly and as a recipe) at every level side by side. \
            Build in release mode for meaningful numbers: swift build -c release. \
            SIGINT, SIGTERM, SIGHUP or SIGQUIT stop it before the next case: what was measured is printed \
            (no goal judged) and, with --out, recorded as a run with status interrupted; the exit status is \
            128 + the signal (130, 143, 129, 131). A second signal stops it at once.
            """)

    @Option(name: .customLong("size"), help: "Frame size WxH for the per-filter table; repeatable (default 1920x1080).")
    var sizes: [String] = []

    @Option(name: .customLong("chain-size"),
            help: "Frame size WxH for the chain and budget table; repeatable (default 1280x720, 1920x1080, 3840x2160).")
    var chainSizes: [String] = []

    @Option(name: .customLong("filter"),
            help: "A built-in or plugin filter to time (default parameters); repeatable (default: every built-in).",
            completion: ShellCompletion.filters)
    var filters: [String] = []

    @Option(name: .long, help: "Comma-separated paths: scalar,simd,recipe,opencv,plugin (default: all but plugin).")
    var paths: String = "scalar,simd,recipe,opencv"

    @Option(name: .long,
            help: "Pixel format of the frames: bgra8 (the speed goals' format) or bgr8 (what OpenCV's decoders and cameras give); filters that do not take it are listed as not measured, and on bgr8 the goal lines are measured only.")
    var format: String = "bgra8"

    @Option(name: .long, help: "Also time recipe rendering with this many threads (rows split across them).")
    var threads: Int = 2

    @Option(name: .long, help: "Timed runs per measurement, after the warm-up (slow paths stop after 3 s and at least 3 runs).")
    var repeats: Int = 15

    @Option(name: .long, help: "Warm-up runs per measurement.")
    var warmup: Int = 2

    @Option(name: .long,
            help: "Kernel level for the SIMD and recipe paths: baseline, avx2, avx512, or all (every level this CPU has, side by side); default: $FRAMELAB_ISA, else the best this CPU has. A level runs its variant for this CPU where CPUID has the extra features (avx2+vnni, avx512+vbmi+vnni); the report names the table.")
    var isa: String?

    @Option(name: .long, help: "Record the results as a run in this HDF5 file (created if missing); with --isa all, one run per level.")
    var out: String?

    @Flag(name: .long, help: "Print the results as one JSON object instead of tables.")
    var json = false

    @Flag(name: .long, help: "Print no progress lines and no library warnings (libpng, libjpeg, OpenCV).")
    var quiet = false

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if threads < 1 { throw usageError("--threads must be at least 1, got \(threads)") }
        if repeats < 1 { throw usageError("--repeats must be at least 1, got \(repeats)") }
        if warmup < 0 { throw usageError("--warmup must not be negative, got \(warmup)") }
        for s in sizes where Self.parseSize(s) == nil {
            throw usageError("--size must be WxH with positive numbers, at most 2^28 pixels, got '\(s)'")
        }
        for s in chainSizes where Self.parseSize(s) == nil {
            throw usageError("--chain-size must be WxH with positive numbers, at most 2^28 pixels, got '\(s)'")
        }
        for p in paths.split(separator: ",") where p != "plugin" && FilterPath(rawValue: String(p)) == nil {
            throw usageError("--paths: unknown path '\(p)' (known: scalar, simd, recipe, opencv, plugin)")
        }
        _ = try levels()
        _ = try frameFormat()
    }

    /// --format as a pixel format: bgra8 or bgr8.
    func frameFormat() throws -> PixelFormat {
        guard let f = PixelFormat(name: format), f == .bgra8 || f == .bgr8 else {
            throw usageError("--format must be bgra8 or bgr8, got '\(format)'")
        }
        return f
    }

    /// The levels to time: --isa (one level, or all this CPU has), else the start-up choice.
    func levels() throws -> [KernelLevel] {
        guard let isa else { return [KernelLevel.current] }
        if isa.lowercased() == "all" { return KernelLevel.supported }
        do {
            return [try KernelLevel.parse(isa, source: "--isa")]
        } catch {
            throw usageError(error.message)
        }
    }

    /// "WxH" with positive sides and at most `ImageCodec.maxDecodedPixels` pixels (larger
    /// frames would only test the allocator, and overflow the geometry's arithmetic).
    static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0,
              w <= ImageCodec.maxDecodedPixels / h else { return nil }
        return (w, h)
    }

    /// The registry to time from and the plugin filters to time, checked before any timing:
    /// plugins are loaded only when a --filter is not a built-in or the plugin path is asked for.
    func filterSelection(pluginPath: Bool) throws -> (registry: FilterRegistry, builtIns: [String]?, plugins: [String]) {
        let builtIns = FilterRegistry.builtIns
        let unknown = filters.filter { builtIns[$0] == nil }
        guard pluginPath || !unknown.isEmpty else { return (builtIns, filters.isEmpty ? nil : filters, []) }
        let catalog = plugins.catalogWarningOfProblems(quiet: quiet)
        let (registry, clashes) = catalog.registry()
        for name in unknown {
            if let clash = clashes[name] { throw usageError(clash) }
            guard let descriptor = registry[name], !descriptor.hasPaths else {
                let known = builtIns.descriptors.map(\.name) + registry.descriptors.filter { !$0.hasPaths }.map(\.name)
                throw usageError("--filter: unknown filter '\(name)' (built-ins and plugins found: \(known.joined(separator: ", ")); \(catalog.unknownNameHint))")
            }
        }
        let named = filters.filter { builtIns[$0] != nil }
        var pluginNames = unknown
        if pluginPath && unknown.isEmpty {
            // Every plugin filter that takes the benchmark's frames.
            let format = try frameFormat()
            pluginNames = registry.descriptors.filter { !$0.hasPaths && $0.formats.contains(format) }.map(\.name)
            if pluginNames.isEmpty && !quiet {
                printToStandardError("framelab: warning: no plugin filter taking \(format) was found (searched: "
                                     + PluginCatalog.searchPath(explicit: plugins.pluginPaths).joined(separator: ", ") + ")")
            }
        }
        // Only plugins named: no built-in rows unless built-ins were named too.
        let builtInNames: [String]? = filters.isEmpty ? nil : named
        return (registry, builtInNames, pluginNames)
    }

    func run() throws {
        LibraryMessages.isSilenced = quiet
        // A signal ends the benchmark before its next case: what was measured is printed and
        // recorded (status interrupted), exit 128 + the signal. A second one ends it at once
        // (nothing is written before the timing ends).
        let interrupt = InterruptHandler(stop: {}, inProgress: "the case in progress")
        defer { interrupt.cancel() }
        var config = FilterBenchmark.Configuration()
        config.stopRequested = { interrupt.received != nil }
        if !sizes.isEmpty { config.sizes = sizes.compactMap(Self.parseSize) }
        let names = paths.split(separator: ",").map(String.init)
        let selection = try filterSelection(pluginPath: names.contains("plugin"))
        config.registry = selection.registry
        if let builtIns = selection.builtIns { config.filters = builtIns }
        config.pluginFilters = selection.plugins
        if !chainSizes.isEmpty { config.budgetSizes = chainSizes.compactMap(Self.parseSize) }
        config.paths = names.compactMap { FilterPath(rawValue: $0) }
        config.threads = threads
        config.format = try frameFormat()
        config.cpuModel = HostInfo.cpuModel
        config.timer = BenchTimer(warmup: warmup, repeats: repeats)
        config.levels = try levels()
        // The file is opened before any timing, so a bad path fails fast; one run per level,
        // each written after the timing (a file has one writer at a time).
        var recorder: BenchRunWriter?
        do {
            recorder = try out.map {
                try RecordingVetting.vet($0)
                return try BenchRunWriter(path: $0, context: commandContext)
            }
        } catch {
            throw failure(error)
        }
        if !quiet {
            let how = isa != nil ? "--isa" : KernelLevel.isForcedByEnvironment ? KernelLevel.environmentVariable : "the best this CPU has"
            printToStandardError("bench: kernel level \(config.levels.map(\.rawValue).joined(separator: ", ")) (\(how); "
                                 + "this CPU has \(KernelLevel.supported.map(\.rawValue).joined(separator: ", ")))")
        }
        let measured: (reports: [BenchReport], comparison: LevelComparison?)
        do {
            measured = try FilterBenchmark(config).runLevels { line in
                if !quiet { printToStandardError("bench: " + line) }
            }
        } catch {
            try? recorder?.finish(status: "failed: \((error as? FramelabError)?.message ?? "\(error)")")
            throw failure(error)
        }
        if let comparison = measured.comparison {
            if json {
                try printJSON(AllLevelsDocument(levels: measured.reports.map(\.document), comparison: comparison.document))
            } else {
                print(measured.reports.map { $0.text() }.joined(separator: "\n\n") + "\n\n" + comparison.text())
            }
        } else if let report = measured.reports.first {
            if json { try printJSON(report.document) } else { print(report.text()) }
        }
        guard let out else {
            if let signal = interrupt.received { throw ExitCode(128 + signal) }
            return
        }
        do {
            for (i, (level, report)) in zip(config.levels, measured.reports).enumerated() {
                if i > 0 {
                    recorder = nil  // closes the file before the next run opens it
                    recorder = try BenchRunWriter(path: out, context: commandContext)
                }
                guard let writer = recorder else { break }
                // The recorder writes each row's level from KernelLevel.compiled, the level current while it records.
                try KernelLevel.$override.withValue(level) { try writer.record(report) }
                try writer.finish(status: report.interrupted ? "interrupted" : "completed")
                if !json { print("recorded the benchmark at kernel level \(level) as run '\(writer.runID)' in \(out)") }
            }
        } catch {
            throw failure(error)
        }
        if let signal = interrupt.received { throw ExitCode(128 + signal) }
    }
}

/// `bench filters --isa all --json`: one report per level, then the levels side by side.
private struct AllLevelsDocument: Encodable {
    let levels: [BenchReport.Document]
    let comparison: LevelComparison.Document
}
