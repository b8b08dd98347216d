import Foundation
import FramelabTestSupport
import Testing

/// Every command that prints results, run with `--json` through the built binary: standard
/// output parses as one JSON document (nothing else on it), and the document has exactly
/// the keys its `--help` documents, each of the documented type.
@Suite struct JSONSchemaTests {
    // MARK: Shapes shared by several commands

    static let parameter = JSONShape.object(["name": .string, "type": .string, "range": .string, "default": .string,
                                             "summary": .string])
    static let stage = JSONShape.object(["name": .string, "frames": .integer, "p50_ms": .number, "p95_ms": .number,
                                         "p99_ms": .number, "max_ms": .number, "capacity_fps": .number,
                                         "over_budget": .object(["24": .number, "30": .number, "60": .number])])
    /// A pipeline run as `report --json` shows it; `end_to_end` is left out when no frame was processed.
    static let runSummaryKeys: [String: JSONShape] = [
        "id": .string, "kind": .string, "source": .string, "policy": .string, "status": .string, "frames": .integer,
        "processed": .integer, "dropped": .integer, "failed": .integer, "fps": .number, "stages": .array(stage),
        "latency_p50_ms": .number, "latency_p95_ms": .number, "latency_max_ms": .number, "queue_wait_p50_ms": .number,
        "queue_wait_p95_ms": .number, "end_to_end": stage, "fits_fps": .array(.integer)]
    static let run = JSONShape.object(runSummaryKeys.merging([
        "file": .nullable(.string), "failure_reasons": .array(.string), "faces_found": .map(.integer),
        "exit_reason": .string, "exit_code": .integer]) { $1 })
    static let detectorScores = JSONShape.object([
        "name": .string, "ap": .nullable(.number), "precision": .nullable(.number), "recall": .nullable(.number),
        "f1": .nullable(.number), "faces": .integer,
        "images": .integer, "failed": .integer, "true_positives": .integer, "false_positives": .integer,
        "p50_ms": .nullable(.number), "p95_ms": .nullable(.number), "images_per_second": .nullable(.number)])
    static let evalResult = JSONShape.object([
        "dataset": .string, "images": .integer, "faces": .integer, "detectors": .array(detectorScores), "out": .nullable(.string),
        "run_id": .nullable(.string), "threads": .integer, "workers": .integer, "wall_seconds": .number])

    // MARK: Fixture: two pipeline runs, a composite dataset, an eval run and two eval shards

    struct Fixture: Sendable {
        let dir: URL
        var runs: String { dir.appendingPathComponent("runs.h5").path }
        var dataset: String { "csv:" + dir.appendingPathComponent("ds/faces.csv").path }
        var eval: String { dir.appendingPathComponent("eval.h5").path }
        func shard(_ k: Int) -> String { dir.appendingPathComponent("shard-\(k).h5").path }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    }

    static let fixture: Result<Fixture, any Error> = Result {
        let f = Fixture(dir: try TestSupport.makeTemporaryDirectory("framelab-json"))
        for (id, filter) in [("a", "sepia"), ("b", "gray")] {
            try succeed(["run", "--source", "synthetic:64x48@200", "--frames", "12", "--filter", filter, "--out", f.runs,
                         "--run-id", id, "--quiet"])
        }
        try succeed(["dataset", "compose", "--out", f.path("ds"), "--count", "4", "--seed", "3"])
        try succeed(["eval", "--dataset", f.dataset, "--detector", "cascade", "--out", f.eval, "--run-id", "e", "--quiet"])
        for k in 0..<2 {
            try succeed(["eval", "--dataset", f.dataset, "--detector", "cascade", "--shard", "\(k)/2", "--out", f.shard(k),
                         "--quiet"])
        }
        return f
    }

    struct CommandFailed: Error, CustomStringConvertible { let description: String }

    @discardableResult
    static func succeed(_ arguments: [String]) throws -> TestSupport.ProcessResult {
        let r = try TestSupport.framelab(arguments)
        guard r.status == 0 else { throw CommandFailed(description: "framelab \(arguments.joined(separator: " ")): \(r.stderr)") }
        return r
    }

    /// Runs `framelab ARGUMENTS` (with --json among them), expects `status`, parses standard
    /// output as one JSON document and checks it against `shape`.
    @discardableResult
    func document(_ arguments: [String], _ shape: JSONShape, status: Int32 = 0,
                  sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let r = try TestSupport.framelab(arguments)
        #expect(r.status == status, "\(arguments): exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        let value = try JSONValue.parse(r.stdout)
        let problems = shape.mismatches(value)
        #expect(problems.isEmpty, "framelab \(arguments.joined(separator: " ")):\n\(problems.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        return value
    }

    // MARK: run

    @Test func runPrintsItsSummaryAsJSON() throws {
        let out = try TestSupport.makeTemporaryDirectory().appendingPathComponent("r.h5").path
        let v = try document(["run", "--source", "synthetic:64x48@200", "--frames", "10", "--filter", "sepia", "--filter", "hue",
                              "--out", out, "--run-id", "j", "--json"], Self.run)
        #expect(v["file"]?.string == out && v["id"]?.string == "j")
        #expect(v["processed"]?.number == 10 && v["exit_reason"]?.string == "completed" && v["exit_code"]?.number == 0)
        #expect(v["stages"]?.array?.compactMap { $0["name"]?.string } == ["sepia", "hue"])
        // The same numbers the recorded run reports.
        let report = try JSONValue.parse(try Self.succeed(["report", out, "--json"]).stdout)
        let recorded = try #require(report["runs"]?.array?.first)
        #expect(recorded["stages"]?.array?.first?["p95_ms"]?.number == v["stages"]?.array?.first?["p95_ms"]?.number)
    }

    @Test func runWithADetectorCountsFacesPerStage() throws {
        let image = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let v = try document(["run", "--source", "image:\(image)", "--detector", "cascade", "--json"],
                             Self.run)
        #expect({ if case .null? = v["file"] { return true }; return false }(), "no --out: file is null")
        let faces = try #require(v["faces_found"]?["detect:cascade"]?.number)
        #expect(faces >= 1)
    }

    @Test func aRunWhoseEveryFrameFailedStillPrintsItsDocument() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        for name in ["a.png", "b.png"] { try Data("not an image".utf8).write(to: dir.appendingPathComponent(name)) }
        var shape = Self.runSummaryKeys
        shape["end_to_end"] = nil  // no frame was processed: no end-to-end row
        shape.merge(["file": .nullable(.string), "failure_reasons": .array(.string), "faces_found": .map(.integer),
                     "exit_reason": .string, "exit_code": .integer]) { $1 }
        let v = try document(["run", "--source", "images:\(dir.path)", "--filter", "gray", "--json"], .object(shape), status: 1)
        #expect(v["exit_reason"]?.string == "every frame failed" && v["exit_code"]?.number == 1)
        #expect(v["failed"]?.number == 2 && v["failure_reasons"]?.array?.count == 2)
    }

    @Test func runQuietPrintsNothingOnStandardOutput() throws {
        let out = try TestSupport.makeTemporaryDirectory().appendingPathComponent("q.h5").path
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@200", "--frames", "5", "--filter", "gray",
                                          "--out", out, "--run-id", "q", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty, "run --quiet printed: \(r.stdout)")
        let loud = try Self.succeed(["run", "--source", "synthetic:64x48@200", "--frames", "5", "--filter", "gray"])
        #expect(loud.stdout.contains("p95 ms") && loud.stdout.contains("gray"), "without --quiet the table is printed")
        // The quiet run was still recorded.
        let report = try JSONValue.parse(try Self.succeed(["report", out, "--json"]).stdout)
        #expect(report["runs"]?.array?.first?["processed"]?.number == 5)
    }

    // MARK: Recordings: report, compare, recover, export, merge

    @Test func reportCompareRecoverExportAndMerge() throws {
        let f = try Self.fixture.get()
        let pipelineRun = JSONShape.object(Self.runSummaryKeys)
        try document(["report", f.runs, "--json"], .object(["runs": .array(pipelineRun)]))

        let runRef = JSONShape.object(["file": .string, "run": .string, "kind": .string, "frames": .integer, "stages": .array(.string)])
        let c = try document(["compare", f.runs + ":a", f.runs + ":b", "--json"], .object([
            "a": runRef, "b": runRef, "confidence": .number, "resamples": .integer, "seed": .integer,
            "stages": .array(.object([
                "a_stage": .string, "b_stage": .string, "a_frames": .integer, "b_frames": .integer, "a_median_ms": .number,
                "b_median_ms": .number, "difference_ms": .number, "interval_ms": .array(.number), "ratio": .number,
                "mann_whitney_u": .number, "z": .number, "p": .number, "b_slower_share": .number])),
            "only_in_a": .array(.string), "only_in_b": .array(.string), "untimed": .array(.any),
            "detectors": .array(.any), "detectors_not_compared": .nullable(.string), "images": .any]))
        #expect(c["stages"]?.array?.first?["a_stage"]?.string == "end-to-end"
                || c["stages"]?.array?.contains { $0["a_stage"]?.string == "end-to-end" } == true)

        try document(["recover", f.runs, "--json"], .object([
            "file": .string, "cleared_write_marks": .bool, "interrupted_runs": .array(.string),
            "unwritten_rows_cut": .map(.any)]))

        let export = try TestSupport.makeTemporaryDirectory().appendingPathComponent("wider").path
        try document(["export", f.eval, "--format", "wider", "--out", export, "--json"], .object([
            "file": .string, "run": .string, "format": .string, "names": .string, "ground_truth": .nullable(.string),
            "exports": .array(.object(["detector": .string, "path": .string, "images": .integer, "detections": .integer,
                                       "failed_images": .integer, "skipped_detections": .integer]))]))

        let merged = try TestSupport.makeTemporaryDirectory().appendingPathComponent("m.h5").path
        let m = try document(["merge", merged, f.shard(0), f.shard(1), "--json"], Self.evalResult)
        #expect(m["images"]?.number == 4)
    }

    // MARK: Datasets and evaluation

    @Test func datasetAndEvalCommands() throws {
        let f = try Self.fixture.get()
        let folder = try TestSupport.makeTemporaryDirectory()
        try document(["dataset", "compose", "--out", folder.appendingPathComponent("c").path, "--count", "2", "--json"],
                     .object(["images": .integer, "faces": .integer, "dataset": .string]))
        let info = try document(["dataset", "info", f.dataset, "--json"], .object([
            "dataset": .string, "images": .integer, "faces": .integer, "ignored": .integer, "missing": .array(.string)]))
        #expect(info["images"]?.number == 4)
        try document(["dataset", "show", f.dataset, "--run", f.eval, "--out", folder.appendingPathComponent("sheet").path,
                      "--quiet", "--json"], .object([
            "sheet": .string, "failed": .integer,
            "images": .array(.object(["index": .integer, "name": .string, "file": .string, "faces": .integer,
                                       "ignored": .integer, "found": .map(.integer)]))]))
        let e = try document(["eval", "--dataset", f.dataset, "--detector", "cascade", "--detector", "opencv-haar", "--quiet",
                              "--json"], Self.evalResult)
        #expect(e["detectors"]?.array?.compactMap { $0["name"]?.string } == ["cascade", "opencv-haar"])
    }

    // MARK: Catalogues: filters, detectors, devices, plugins

    @Test func cataloguesOfFiltersDetectorsAndDevices() throws {
        let filters = try document(["filters", "--json"], .object([
            "filters": .array(.object(["name": .string, "summary": .string, "origin": .string, "version": .string,
                                       "formats": .array(.string), "paths": .array(.string),
                                       "parameters": .array(Self.parameter)])),
            "clashes": .array(.string)]))
        let names = filters["filters"]?.array?.compactMap { $0["name"]?.string } ?? []
        #expect(names.contains("sepia") && names.contains("gaussianBlur"))

        let shape = JSONShape.object(["format": .string, "width": .integer, "height": .integer])
        let chain = ["--filter", "sepia", "--filter", "gaussianBlur", "--filter", "hue"]
        let plan = try document(["filters", "--explain"] + chain + ["--size", "320x240", "--json"], .object([
            "operations": .integer, "threads": .integer, "input": shape, "output": shape, "intermediates": .integer,
            "passes": .array(.object(["filters": .array(.string), "input": shape, "output": shape,
                                      "steps": .array(.string), "shared_loops": .array(.string),
                                      "copied_rows": .integer]))]))
        // The document and the text describe the same plan.
        let text = try Self.succeed(["filters", "--explain"] + chain + ["--size", "320x240"]).stdout
        let passLines = text.split(separator: "\n").filter { $0.hasPrefix("  pass ") }.count
        #expect(plan["passes"]?.array?.count == passLines && plan["operations"]?.number == 3)

        try document(["detectors", "--json"], .object([
            "detectors": .array(.object(["name": .string, "summary": .string, "origin": .string, "available": .bool,
                                         "missing_files": .array(.string), "parameters": .array(Self.parameter)])),
            "clashes": .array(.string)]))
        try document(["devices", "--json"], .object(["devices": .array(.any), "skipped": .array(.any), "problems": .array(.string)]))
    }

    @Test func pluginsListDescribeAndCheck() throws {
        let cache = try TestSupport.makeTemporaryDirectory()
        let invert = PluginBuilder.example("c-invert")
        let env = ["FRAMELAB_CACHE_DIR": cache.path]
        func doc(_ arguments: [String], _ shape: JSONShape, status: Int32 = 0) throws -> JSONValue {
            let r = try TestSupport.framelab(arguments, environment: env)
            #expect(r.status == status, "\(arguments): \(r.stderr)")
            let v = try JSONValue.parse(r.stdout)
            let problems = shape.mismatches(v)
            #expect(problems.isEmpty, "\(arguments):\n\(problems.joined(separator: "\n"))")
            return v
        }
        try doc(["plugins", "list", "--plugin-path", invert, "--json"], .object([
            "elements": .array(.object(["name": .string, "kind": .string, "origin": .string, "version": .string,
                                        "abi_version": .nullable(.string), "formats": .array(.string), "status": .string])),
            "problems": .array(.string)]))
        let description = JSONShape.object(["name": .string, "kind": .string, "summary": .string, "origin": .string,
                                            "version": .string, "abi_version": .nullable(.string), "formats": .array(.string),
                                            "parameters": .array(Self.parameter)])
        let builtIn = try doc(["plugins", "describe", "sepia", "--json"], description)
        #expect(builtIn["origin"]?.string == "built-in" && builtIn["parameters"]?.array?.first?["name"]?.string == "intensity")
        let plugin = try doc(["plugins", "describe", "negative", "--plugin-path", invert, "--json"], description)
        #expect(plugin["origin"]?.string == invert && plugin["abi_version"]?.string != nil)

        let check = JSONShape.object([
            "path": .string, "plugin": .nullable(.string), "abi_version": .nullable(.string), "rejection": .nullable(.string),
            "accepted": .bool,
            "elements": .array(.object(["name": .string, "kind": .string, "version": .string, "formats": .array(.string),
                                        "accepted": .bool, "problem": .nullable(.string)]))])
        let good = try doc(["plugins", "check", invert, "--json"], check)
        #expect(good["accepted"]?.bool == true && good["elements"]?.array?.first?["name"]?.string == "negative")
        // A plugin whose element fails its test run: the document says so, and the exit status too.
        let failing = try PluginBuilder.broken("RETURNS_ERROR", element: "fails", in: cache)
        let bad = try doc(["plugins", "check", failing, "--json"], check, status: 1)
        #expect(bad["accepted"]?.bool == false && bad["elements"]?.array?.first?["problem"]?.string != nil)
        // A file that is no plugin: rejected, and no elements.
        let notPlugin = cache.appendingPathComponent("libnot.so")
        try Data("not a shared library".utf8).write(to: notPlugin)
        let rejected = try doc(["plugins", "check", notPlugin.path, "--json"], check, status: 1)
        #expect(rejected["rejection"]?.string != nil && rejected["elements"]?.array?.isEmpty == true)
    }

    /// A plugin element named like a built-in detector cannot be used (the one name-clash
    /// rule): `plugins list` calls it unusable, lists the clash as a problem, and --strict fails.
    @Test func pluginsListCallsNoClashingElementAccepted() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let env = ["FRAMELAB_CACHE_DIR": dir.appendingPathComponent("cache").path]
        let plugin = try PluginBuilder.broken("NONE", element: "cascade", in: dir)
        let r = try TestSupport.framelab(["plugins", "list", "--json", "--strict", "--plugin-path", plugin], environment: env)
        #expect(r.status == 1, "\(r.stderr)")
        let v = try JSONValue.parse(r.stdout)
        let element = try #require(v["elements"]?.array?.first { $0["name"]?.string == "cascade" })
        #expect(element["status"]?.string?.hasPrefix("unusable: ") == true, "\(element)")
        #expect(v["problems"]?.array?.contains { $0.string?.contains("'cascade'") == true } == true)
        // Every element the document calls accepted is named by no problem.
        let problems = v["problems"]?.array?.compactMap(\.string) ?? []
        for e in v["elements"]?.array ?? [] where e["status"]?.string == "accepted" {
            let name = e["name"]?.string ?? ""
            #expect(!problems.contains { $0.contains("'\(name)'") }, "\(name) is accepted but a problem names it")
        }
    }

    // MARK: Benchmarks, cluster submission, completions

    @Test func benchCommands() throws {
        let goal = JSONShape.object(["goal": .string, "measured": .string, "met": .nullable(.bool)])
        try document(["bench", "filters", "--size", "64x48", "--chain-size", "64x48", "--filter", "sepia", "--repeats", "1",
                      "--warmup", "0", "--quiet", "--json"], .object([
            "isa": .string, "kernels": .string, "format": .string, "cpu_model": .string, "interrupted": .bool,
            "memcpy_ms": .nullable(.number),
            "memcpy_ms_by_size": .map(.nullable(.number)),
            "memcpy_in_pieces_ms_by_threads": .map(.nullable(.number)),
            "results": .array(.object(["filter": .string, "path": .string, "size": .string, "threads": .integer,
                                       "min_ms": .nullable(.number), "median_ms": .nullable(.number), "runs": .integer,
                                       "side_by_side": .bool, "vs_memcpy": .nullable(.number),
                                       "vs_opencv": .nullable(.number), "vs_scalar": .nullable(.number)])),
            "skipped": .array(.string), "goals": .array(goal)]))
        try document(["bench", "detectors", "--part", "speed", "--detector", "cascade", "--repeats", "1", "--quiet", "--json"],
                     .object([
            "speed": .array(.object(["detector": .string, "width": .integer, "height": .integer, "min_ms": .number,
                                     "median_ms": .number, "faces": .integer, "repeats": .integer,
                                     "fits_fps": .array(.integer)])),
            "unavailable": .array(.object(["detector": .string, "reason": .string])),
            "cascades": .array(.any), "goals": .array(.object(["goal": .string, "met": .bool]))]))
        try document(["bench", "pipeline", "--frames", "10", "--stage-ms", "1", "--repeats", "1", "--composites", "0", "--json"],
                     .object([
            "frame": .object(["width": .integer, "height": .integer]), "goals": .array(goal),
            "overhead_us": .array(.object(["mode": .string, "min": .number, "median": .number])),
            "throughput": .array(.object(["mode": .string, "frames": .integer, "min_ms": .number, "median_ms": .number,
                                          "speedup": .number, "median_speedup": .number]))]))
    }

    @Test func submitSlurmDryRunAndCompletionsInstall() throws {
        let f = try Self.fixture.get()
        let dir = try TestSupport.makeTemporaryDirectory()
        let s = try document(["submit", "slurm", "--shards", "3", "--out-dir", dir.appendingPathComponent("sub").path, "--dry-run",
                              "--json", "--", "eval", "--dataset", f.dataset, "--detector", "cascade"], .object([
            "dry_run": .bool, "out_dir": .string, "shards": .integer, "tasks": .array(.integer), "eval_script": .string,
            "merge_script": .string, "merged": .string, "logs": .string, "commands": .array(.array(.string)),
            "array_job": .nullable(.string), "merge_job": .nullable(.string)]))
        #expect(s["tasks"]?.array?.compactMap(\.number) == [0, 1, 2] && s["commands"]?.array?.count == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("sub").path), "a dry run writes nothing")

        let installed = try document(["completions", "install", "--shell", "bash", "--prefix", dir.path, "--json"],
                                     .object(["shell": .string, "path": .string]))
        #expect(installed["path"]?.string == dir.path + "/share/bash-completion/completions/framelab")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/share/bash-completion/completions/framelab"))
    }
}
