import ArgumentParser
import FramelabCore
import FramelabElements
import FramelabPluginHost

/// `framelab filters`: the filters `--filter` accepts, with their parameters; or, with
/// `--explain`, the fused plan a recipe of them would run.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters --filter accepts, with parameters, ranges and defaults.",
        discussion: """
            With --explain and one or more --filter, prints the plan `run --path recipe` would execute \
            for a frame of --size and --format: which operations fuse into which pass. \
            --json prints {"filters": [{"name", "summary", "origin", "version", "formats", "paths", "parameters": \
            [{"name", "type", "range", "default", "summary"}]}], "clashes": [...]}; with --explain, \
            {"operations", "threads", "input", "output" ({"format", "width", "height"}), "passes": [{"filters", \
            "input", "output", "steps", "shared_loops", "copied_rows"}], "intermediates"}.
            """)

    @Flag(name: .long, help: "Print the fused recipe plan of the --filter chain instead of the list.")
    var explain = false

    @Option(name: .customLong("filter"), help: "A filter NAME[:key=value,...] of the chain to explain; repeatable.",
            completion: ShellCompletion.filters)
    var filters: [String] = []

    @Option(name: .long, help: "Frame size WxH for --explain.")
    var size: String = "1920x1080"

    @Option(name: .long, help: "Input pixel format for --explain (gray8, bgr8, bgra8).")
    var format: String = "bgra8"

    @Option(name: .long, help: "Threads the recipe splits rows across, for --explain.")
    var threads: Int = 1

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if !explain && !filters.isEmpty { throw usageError("--filter needs --explain") }
        if explain && filters.isEmpty { throw usageError("--explain needs at least one --filter") }
        if BenchFiltersCommand.parseSize(size) == nil { throw usageError("--size must be WxH with positive numbers, at most 2^28 pixels, got '\(size)'") }
        if PixelFormat(name: format) == nil { throw usageError("--format must be gray8, bgr8, bgra8 or grayf32, got '\(format)'") }
        if threads < 1 { throw usageError("--threads must be at least 1, got \(threads)") }
    }

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let (registry, clashes) = plugins.catalogWarningOfProblems().registry()  // built-ins and plugins
        if explain {
            do {
                let recipe = try registry.recipe(filters.map { try ElementSpec(parsing: $0) })
                let (w, h) = BenchFiltersCommand.parseSize(size)!
                let plan = try recipe.plan(format: PixelFormat(name: format)!, width: w, height: h)
                if json { try printJSON(RecipePlanJSON(plan, threads: threads)) } else { print(plan.explain(threads: threads)) }
            } catch {
                throw failure(error)
            }
            return
        }
        if json {
            try printJSON(FilterListJSON(filters: registry.descriptors.map(FilterListJSON.Filter.init),
                                         clashes: clashes.keys.sorted().compactMap { clashes[$0] }))
            return
        }
        for d in registry.descriptors {
            print("\(d.name)  [\(d.origin); formats \(d.formats.map(\.name).joined(separator: ", "))]")
            print("    \(d.summary)")
            if d.hasPaths { print("    paths: \(d.paths.map(\.rawValue).joined(separator: ", "))") }
            for p in d.parameters {
                print("    \(p.name): \(p.type), range \(p.rangeText), default \(p.defaultValue) — \(p.summary)")
            }
        }
    }
}
