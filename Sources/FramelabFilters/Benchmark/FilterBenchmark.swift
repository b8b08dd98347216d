import FramelabCore
import FramelabElements
import FramelabCV

#if canImport(Glibc)
import Glibc
#endif

/// `framelab bench filters`: every chosen filter on every chosen path, on the same frames
/// in one process, plus the four-operation chain eager and fused, and the chain at 720p,
/// 1080p and 4K for the frame-budget table.
public struct FilterBenchmark {
    public struct Configuration: Sendable {
        public var sizes: [(width: Int, height: Int)] = [(1920, 1080)]
        public var filters: [String] = BuiltInFilters.all.map(\.name)
        public var paths: [FilterPath] = FilterPath.allCases
        /// Recipe rendering is also measured with this many threads when it is above 1.
        public var threads: Int = 2
        public var timer = BenchTimer()
        /// Where filters are looked up: the built-ins, plus plugin filters when the caller
        /// loaded plugins (`PluginCatalog.registry()`).
        public var registry: FilterRegistry = .builtIns
        /// Plugin filters (in `registry`) timed on the `plugin` path, in process, with
        /// default parameters, on the same frames as the built-ins.
        public var pluginFilters: [String] = []
        public var budgetSizes: [(width: Int, height: Int)] = [(1280, 720), (1920, 1080), (3840, 2160)]
        /// The frames' pixel format: bgra8 (the speed goals' format) or bgr8 (OpenCV's
        /// decoders and cameras); filters that do not take it are listed as not measured.
        public var format: PixelFormat = .bgra8
        /// The CPU's model name for the report (the CLI passes `/proc/cpuinfo`'s).
        public var cpuModel = "unknown"
        /// The kernel levels to time (`runLevels`); each must be one this CPU has.
        public var levels: [KernelLevel] = [KernelLevel.current]
        /// Asked before each measurement: true ends the benchmark there, with what was
        /// measured so far (`BenchReport.interrupted`; a signal asked it to stop).
        public var stopRequested: @Sendable () -> Bool = { false }
        public init() {}
    }

    /// The chain of four colour operations of the speed goals.
    public static let chain = ["sepia:intensity=0.8", "hue:angle=0.5", "colorControls:saturation=1.2,contrast=1.1",
                               "gamma:power=0.8"]

    /// What a filter is timed with where its defaults would time nothing worth knowing:
    /// `resize` defaults to scale 1, so it is timed shrinking 1080p to 720p (the goal
    /// lines' size), and enlarging 720p to 1080p as the case `resizeUp`.
    public static let benchSpecs = ["resize": "resize:scale=0.666667"]
    /// The enlarging resize case: its name in the report, its spec, and its input size.
    public static let resizeUp = (name: "resize-up", spec: "resize:scale=1.5", width: 1280, height: 720)

    /// The spec a filter is timed with (`benchSpecs`, else its defaults).
    static func benchSpec(_ name: String) throws -> ElementSpec {
        try benchSpecs[name].map { try ElementSpec(parsing: $0) } ?? ElementSpec(name: name)
    }

    public let configuration: Configuration
    var registry: FilterRegistry { configuration.registry }
    /// The path name plugin filters are reported under.
    public static let pluginPath = "plugin"

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// Runs everything once per configured level (filters made at that level), then, with
    /// more than one level, the level comparison side by side.
    public func runLevels(progress: (String) -> Void) throws -> (reports: [BenchReport], comparison: LevelComparison?) {
        var reports: [BenchReport] = []
        for level in configuration.levels {
            precondition(level.isSupported, "bench: kernel level \(level) is not supported by this CPU")
            reports.append(try KernelLevel.$override.withValue(level) {
                try run { progress(configuration.levels.count > 1 ? "[\(level)] " + $0 : $0) }
            })
            if reports.last!.interrupted { return (reports, nil) }
        }
        guard configuration.levels.count > 1 else { return (reports, nil) }
        do {
            return (reports, try compareLevels(progress: progress))
        } catch is Stopped {
            reports[reports.count - 1].interrupted = true
            return (reports, nil)
        }
    }

    /// Thrown by `step` when a stop was requested: unwinds to where the partial report is kept.
    struct Stopped: Error {}

    /// Called before each measurement starts: ends the benchmark there when a stop was
    /// requested, else tells `progress` what is about to be measured.
    func checkpoint(_ progress: (String) -> Void, _ line: String) throws {
        if configuration.stopRequested() { throw Stopped() }
        progress(line)
    }

    /// Runs everything at `KernelLevel.current`; `progress` gets one line per measurement
    /// about to start. When `stopRequested` answers true before a measurement, the report
    /// holds what was measured before it and is marked `interrupted`.
    public func run(progress: (String) -> Void) throws -> BenchReport {
        var report = BenchReport()
        report.isa = KernelLevel.current.rawValue
        report.kernels = KernelLevel.current.kernels.name
        report.format = configuration.format.name
        report.cpuModel = configuration.cpuModel
        do {
            try measure(into: &report, progress: progress)
        } catch is Stopped {
            report.interrupted = true
        }
        return report
    }

    private func measure(into report: inout BenchReport, progress: (String) -> Void) throws {
        // The goals are about one thread; OpenCV's own loops would otherwise use every core.
        let openCVThreads = OpenCVThreads.count
        OpenCVThreads.count = 1
        defer { OpenCVThreads.count = openCVThreads }
        let timer = configuration.timer
        let threadCounts = configuration.threads > 1 ? [1, configuration.threads] : [1]

        for (w, h) in configuration.sizes {
            let size = "\(w)x\(h)"
            report.sizes.append(size)
            let frame = testFrame(width: w, height: h)
            report.memcpy[size] = Self.timeMemcpy(frame, timer)
            for name in configuration.filters {
                for path in configuration.paths {
                    for threads in (path == .recipe ? threadCounts : [1]) {
                        try checkpoint(progress, "\(name) on \(path)\(threads > 1 ? " (\(threads) threads)" : "") at \(size)")
                        let filter: any FrameFilter
                        do {
                            filter = try registry.instantiate(Self.benchSpec(name), path: path, threads: threads)
                            _ = try filter.process(frame)
                        } catch let error as FramelabError where error.kind == .unsupported {
                            report.skipped.append("\(name) on \(path): \(error.message)")
                            continue
                        }
                        let t = try timer.measure { _ = try filter.process(frame) }
                        report.results.append(BenchResult(filter: name, path: path.rawValue, width: w, height: h,
                                                          threads: threads, timing: t))
                    }
                }
            }
            for name in configuration.pluginFilters {
                try checkpoint(progress, "\(name) on \(Self.pluginPath) at \(size)")
                if let t = try timePlugin(name, frame, timer, skipped: &report.skipped) {
                    report.results.append(BenchResult(filter: name, path: Self.pluginPath, width: w, height: h,
                                                      threads: 1, timing: t))
                }
            }
        }

        let specs = try Self.chain.map { try ElementSpec(parsing: $0) }
        for (w, h) in configuration.budgetSizes {
            let size = "\(w)x\(h)"
            let frame = testFrame(width: w, height: h)
            if report.memcpy[size] == nil { report.memcpy[size] = Self.timeMemcpy(frame, timer) }
            var chains: [(path: String, threads: Int, filters: [any FrameFilter])] = []
            for path in configuration.paths where path != .recipe {
                chains.append(("eager-\(path)", 1, try specs.map { try registry.instantiate($0, path: path) }))
            }
            if configuration.paths.contains(.recipe) {
                for threads in Set(threadCounts + [1, 2]).sorted() {
                    chains.append(("recipe", threads, try registry.instantiateChain(specs, path: .recipe, threads: threads)))
                }
            }
            for chain in chains {
                try checkpoint(progress, "chain of four on \(chain.path)\(chain.threads > 1 ? " (\(chain.threads) threads)" : "") at \(size)")
                let t = try timer.measure { try Self.runChain(chain.filters, on: frame) }
                report.results.append(BenchResult(filter: "chain4", path: chain.path, width: w, height: h,
                                                  threads: chain.threads, timing: t))
            }
        }
        try timeGoalsSideBySide(&report, progress: progress)
    }

    /// Rounds of the side-by-side goal timing: enough that a minute of a slow machine
    /// cannot favour one case, few enough that each round runs each case a few times.
    public static let goalRounds = 5
    /// Each side-by-side case runs at least this long per round (up to 100 runs), so a
    /// 1 ms case is judged on hundreds of samples, not on `--repeats`' handful.
    public static let goalRoundMs = 30.0

    /// The key of a goal case in `BenchReport.goalTimings`.
    public static func goalKey(_ filter: String, _ path: String, threads: Int = 1, size: String = "1920x1080") -> String {
        "\(filter)/\(path)/\(threads)/\(size)"
    }

    /// Times side by side, in alternating rounds, the cases the speed goals compare (those
    /// this run's filters and paths include) and puts those timings into the report's rows
    /// (`BenchReport.adoptSideBySide`), so the table and the goal lines quote one
    /// measurement: memcpy, each built-in on the SIMD path and, where it has one, its
    /// OpenCV reference, per-pixel ops as recipes on 1 and 2 threads (1080p), and the chain
    /// eagerly and as a recipe on 1 and 2 threads (1080p, and the recipe at 720p).
    func timeGoalsSideBySide(_ report: inout BenchReport, progress: (String) -> Void) throws {
        let main = (width: 1920, height: 1080), small = (width: 1280, height: 720)
        let measured = configuration.sizes.contains { $0 == main } || configuration.budgetSizes.contains { $0 == main }
        guard measured else { return }
        let paths = configuration.paths
        var frames: [String: Mat] = [:]
        func frame(_ size: (width: Int, height: Int)) -> Mat {
            let key = "\(size.width)x\(size.height)"
            if let f = frames[key] { return f }
            let f = testFrame(width: size.width, height: size.height)
            frames[key] = f
            return f
        }
        let mainFrame = frame(main)
        let copy = Mat(format: mainFrame.format, width: main.width, height: main.height)
        var keys = [Self.goalKey("memcpy", "")]
        var bodies: [() throws -> Void] = [{
            copy.withUnsafeMutableBytes { dst in mainFrame.withUnsafeBytes { src in _ = memcpy(dst.baseAddress!, src.baseAddress!, src.count) } }
        }]
        if paths.contains(.recipe) {
            for threads in [1, 2] {
                keys.append(Self.goalKey(Self.memcpyInPiecesKey, "", threads: threads))
                bodies.append { Self.copyInPieces(mainFrame, into: copy, threads: threads) }
            }
        }
        func add(_ key: String, _ filters: [any FrameFilter], on input: Mat) throws {
            guard try Self.take(input, filters) else { return }
            keys.append(key)
            bodies.append { try Self.runChain(filters, on: input) }
        }
        for name in configuration.filters where registry[name]?.hasPaths == true {
            let spec = try Self.benchSpec(name)
            if paths.contains(.simd) { try add(Self.goalKey(name, "simd"), [try registry.instantiate(spec, path: .simd)], on: mainFrame) }
            if paths.contains(.opencv), registry[name]!.paths.contains(.opencv) {
                try add(Self.goalKey(name, "opencv"), [try registry.instantiate(spec, path: .opencv)], on: mainFrame)
            }
            if paths.contains(.recipe), registry.isPerPixel(name) {
                for threads in [1, 2] {
                    try add(Self.goalKey(name, "recipe", threads: threads),
                        [try registry.instantiate(spec, path: .recipe, threads: threads)], on: mainFrame)
                }
            }
        }
        if configuration.filters.contains("resize") {
            // Enlarging against OpenCV too (720p to 1080p).
            let up = Self.resizeUp, upSpec = try ElementSpec(parsing: up.spec), upSize = "\(up.width)x\(up.height)"
            for path in [FilterPath.simd, .opencv] where paths.contains(path) {
                try add(Self.goalKey(up.name, path.rawValue, size: upSize), [try registry.instantiate(upSpec, path: path)],
                    on: frame((width: up.width, height: up.height)))
            }
        }
        let specs = try Self.chain.map { try ElementSpec(parsing: $0) }
        if paths.contains(.simd) {
            try add(Self.goalKey("chain4", "eager-simd"), try specs.map { try registry.instantiate($0, path: .simd) }, on: mainFrame)
        }
        if paths.contains(.recipe) {
            var sizes = [main]
            if configuration.budgetSizes.contains(where: { $0 == small }) { sizes.append(small) }
            for size in sizes {
                for threads in [1, 2] {
                    try add(Self.goalKey("chain4", "recipe", threads: threads, size: "\(size.width)x\(size.height)"),
                        try registry.instantiateChain(specs, path: .recipe, threads: threads), on: frame(size))
                }
            }
        }
        try checkpoint(progress, "speed goals: \(keys.count) cases side by side, \(Self.goalRounds) rounds")
        let timings = try configuration.timer.measureSideBySide(bodies, rounds: Self.goalRounds, roundMs: Self.goalRoundMs)
        for (key, timing) in zip(keys, timings) { report.goalTimings[key] = timing }
        report.goalRounds = Self.goalRounds
        report.adoptSideBySide()
    }

    /// Times, side by side in alternating rounds at the first size, each configured
    /// built-in on the SIMD path and the chain eagerly and as a one-thread recipe, at every
    /// configured level, with memcpy: one machine phase for all the levels.
    func compareLevels(progress: (String) -> Void) throws -> LevelComparison {
        let (w, h) = configuration.sizes.first ?? (1920, 1080)
        let frame = testFrame(width: w, height: h)
        let copy = Mat(format: frame.format, width: w, height: h)
        var comparison = LevelComparison(size: "\(w)x\(h)", format: configuration.format.name,
                                         levels: configuration.levels.map(\.rawValue),
                                         kernels: configuration.levels.map { $0.kernels.name })
        var bodies: [() throws -> Void] = [{
            copy.withUnsafeMutableBytes { dst in frame.withUnsafeBytes { src in _ = memcpy(dst.baseAddress!, src.baseAddress!, src.count) } }
        }]
        var cases: [(name: String, path: String)] = []
        let specs = try Self.chain.map { try ElementSpec(parsing: $0) }
        for name in configuration.filters where configuration.paths.contains(.simd) { cases.append((name, "simd")) }
        if configuration.paths.contains(.simd) { cases.append(("chain4", "eager-simd")) }
        if configuration.paths.contains(.recipe) { cases.append(("chain4", "recipe")) }
        var kept: [(name: String, path: String)] = []
        for c in cases {
            var levelBodies: [() throws -> Void] = []
            for level in configuration.levels {
                let filters: [any FrameFilter] = try KernelLevel.$override.withValue(level) {
                    switch (c.name, c.path) {
                    case ("chain4", "recipe"): return try registry.instantiateChain(specs, path: .recipe, threads: 1)
                    case ("chain4", _): return try specs.map { try registry.instantiate($0, path: .simd) }
                    default: return [try registry.instantiate(Self.benchSpec(c.name), path: .simd)]
                    }
                }
                guard try Self.take(frame, filters) else { break }
                levelBodies.append { try Self.runChain(filters, on: frame) }
            }
            // Timed only where every level took the frame (a format is taken at all or none).
            guard levelBodies.count == configuration.levels.count else { continue }
            kept.append(c)
            bodies += levelBodies
        }
        try checkpoint(progress, "kernel levels: \(kept.count) cases at \(configuration.levels.count) levels side by side at \(w)x\(h), "
                 + "\(Self.goalRounds) rounds")
        let timings = try configuration.timer.measureSideBySide(bodies, rounds: Self.goalRounds, roundMs: Self.goalRoundMs)
        comparison.memcpy = timings[0]
        let n = configuration.levels.count
        for (i, c) in kept.enumerated() {
            comparison.rows.append(LevelComparison.Row(filter: c.name, path: c.path,
                                                       timings: Array(timings[(1 + i * n)..<(1 + (i + 1) * n)])))
        }
        comparison.rounds = Self.goalRounds
        return comparison
    }

    /// One plugin filter on the frame, or nil (with the reason in `skipped`) when it does
    /// not take the frame's format or fails on its first frame.
    func timePlugin(_ name: String, _ frame: Mat, _ timer: BenchTimer, skipped: inout [String]) throws -> BenchTimer.Timing? {
        guard let descriptor = registry[name] else {
            skipped.append("\(name) on \(Self.pluginPath): no plugin filter of that name is loaded")
            return nil
        }
        guard descriptor.formats.contains(frame.format) else {
            let accepted = descriptor.formats.map(\.name).joined(separator: ", ")
            skipped.append("\(name) on \(Self.pluginPath): takes \(accepted), not \(frame.format)")
            return nil
        }
        let filter: any FrameFilter
        do {
            filter = try registry.instantiate(ElementSpec(name: name))
            _ = try filter.process(frame)
        } catch let error as FramelabError {
            skipped.append("\(name) on \(Self.pluginPath): \(error.message)")
            return nil
        }
        return try timer.measure { _ = try filter.process(frame) }
    }

    /// Whether `filters` take `frame` (a run on it that fails as unsupported says no: a
    /// bgra8-only filter on a bgr8 frame); any other failure is thrown.
    static func take(_ frame: Mat, _ filters: [any FrameFilter]) throws -> Bool {
        do {
            try runChain(filters, on: frame)
            return true
        } catch let error as FramelabError where error.kind == .unsupported {
            return false
        }
    }

    /// `frame` through `filters` one after the other (one filter is a single op).
    static func runChain(_ filters: [any FrameFilter], on frame: Mat) throws {
        var image = frame
        for f in filters { image = try f.process(image) }
    }

    /// memcpy of the frame's bytes into another buffer of the same size.
    static func timeMemcpy(_ frame: Mat, _ timer: BenchTimer) -> BenchTimer.Timing {
        let copy = Mat(format: frame.format, width: frame.width, height: frame.height)
        return copy.withUnsafeMutableBytes { dst in
            frame.withUnsafeBytes { src in
                timer.measure { memcpy(dst.baseAddress!, src.baseAddress!, src.count) }
            }
        }
    }

    /// The goal key's name for `copyInPieces`.
    static let memcpyInPiecesKey = "memcpy-pieces"

    /// memcpy of `frame` into `copy` in the row pieces a per-pixel recipe on two threads
    /// cuts the frame into (`RowParallel.piecesPerWorker` a worker), handed out to
    /// `threads` workers as a recipe hands them out; on one worker the same pieces run one
    /// after the other, so the two differ only in the second worker (glibc may copy a whole
    /// frame and a half-megabyte piece differently).
    static func copyInPieces(_ frame: Mat, into copy: Mat, threads: Int) {
        let pieces = 2 * RowParallel.piecesPerWorker, height = frame.height
        copy.withUnsafeMutableBytes { dst in
            frame.withUnsafeBytes { src in
                // The same bytes as the whole-frame memcpy, cut at row starts.
                let to = UncheckedSendable(dst.baseAddress!), from = UncheckedSendable(src.baseAddress!)
                let stride = frame.stride, count = min(src.count, dst.count)
                RowParallel.runBands(rows: pieces, threads: threads, piecesPerWorker: RowParallel.piecesPerWorker) { _, ks in
                    for k in ks {
                        let start = height * k / pieces * stride, end = min(height * (k + 1) / pieces * stride, count)
                        if end > start { memcpy(to.value + start, from.value + start, end - start) }
                    }
                }
            }
        }
    }

    /// The configured format's test frame (`testFrame(width:height:format:)`).
    func testFrame(width: Int, height: Int) -> Mat {
        Self.testFrame(width: width, height: height, format: configuration.format)
    }

    /// A BGRA or BGR frame with smooth colour and fine detail, like a camera frame (the
    /// same frame for every path, so results are comparable; the bgr8 frame is the bgra8
    /// one without alpha).
    public static func testFrame(width: Int, height: Int, format: PixelFormat = .bgra8) -> Mat {
        precondition(format == .bgra8 || format == .bgr8, "bench frames are bgra8 or bgr8")
        let m = Mat(format: format, width: width, height: height)
        let step = format.bytesPerPixel
        m.withUnsafeMutableBytes { bytes in
            let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var state: UInt32 = 12345
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let grain = Int(state >> 28) - 8
                    let o = y * m.stride + step * x
                    p[o] = UInt8(clamping: (x * 255 / max(width, 1)) + grain)
                    p[o + 1] = UInt8(clamping: (y * 255 / max(height, 1)) + grain)
                    p[o + 2] = UInt8(clamping: ((x + y) * 255 / max(width + height, 1)) + grain)
                    if step == 4 { p[o + 3] = 255 }
                }
            }
        }
        return m
    }
}
