import FramelabTestSupport
import Foundation
import Testing

/// `framelab bench filters` and `framelab run --path` end to end, with the real binary.
@Suite(.serialized) struct BenchCommandTests {
    let small = ["bench", "filters", "--size", "64x48", "--chain-size", "64x48", "--repeats", "3", "--warmup", "1", "--quiet"]

    @Test func jsonHasMemcpyAndOneResultPerFilterPathAndSize() throws {
        let r = try TestSupport.framelab(small + ["--filter", "gray", "--filter", "vibrance", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect((json["memcpy_ms"] as? Double ?? 0) > 0)
        let results = json["results"] as! [[String: Any]]
        let keys = Set(results.map { "\($0["filter"]!)/\($0["path"]!)/\($0["threads"]!)" })
        // gray on every path, recipe also on 2 threads; vibrance has no OpenCV reference.
        for k in ["gray/scalar/1", "gray/simd/1", "gray/recipe/1", "gray/recipe/2", "gray/opencv/1",
                  "vibrance/scalar/1", "vibrance/simd/1", "vibrance/recipe/1",
                  "chain4/eager-simd/1", "chain4/recipe/1", "chain4/recipe/2", "chain4/eager-opencv/1"] {
            #expect(keys.contains(k), "missing \(k)")
        }
        #expect(!keys.contains("vibrance/opencv/1"))
        #expect((json["skipped"] as! [String]).contains { $0.hasPrefix("vibrance on opencv") })
        for row in results {
            let lo = row["min_ms"] as! Double, mid = row["median_ms"] as! Double
            #expect(lo > 0 && lo <= mid, "\(row)")
            #expect(row["size"] as? String == "64x48")
        }
    }

    @Test func tablePrintsRatiosBudgetAndGoals() throws {
        let r = try TestSupport.framelab(small + ["--filter", "sepia", "--paths", "simd,opencv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("memcpy of one bgra8 frame at 64x48"))
        #expect(r.stdout.contains("/memcpy") && r.stdout.contains("/opencv"))
        #expect(r.stdout.contains("frame budget for the chain of four"))
        #expect(r.stdout.contains("24fps 30fps 60fps"))
        #expect(r.stdout.contains("speed goals"))
        // The header names the machine, as /proc/cpuinfo does (ratios differ from CPU to CPU).
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        if let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let model = line.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) {
            #expect(r.stdout.contains("; CPU: \(model)\n"), "\(r.stdout.prefix(300))")
        }
    }

    /// --format bgr8: three-byte frames on every path, the chain too; no goal is judged on
    /// them; the run records the format.
    @Test func bgr8FramesAreTimedAndRecorded() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("bgr8.h5").path
        let r = try TestSupport.framelab(small + ["--format", "bgr8", "--filter", "sepia", "--filter", "vibrance", "--filter", "gray",
                                                  "--filter", "gaussianBlur", "--json", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(json["format"] as? String == "bgr8")
        #expect((json["cpu_model"] as? String).map { !$0.isEmpty && $0 != "unknown" } == true, "\(json["cpu_model"] ?? "none")")
        let results = json["results"] as! [[String: Any]]
        let keys = Set(results.map { "\($0["filter"]!)/\($0["path"]!)/\($0["threads"]!)" })
        for k in ["sepia/simd/1", "sepia/opencv/1", "vibrance/simd/1", "gray/simd/1", "gaussianBlur/simd/1",
                  "chain4/eager-simd/1", "chain4/recipe/1", "chain4/recipe/2"] {
            #expect(keys.contains(k), "missing \(k)")
        }
        let goals = json["goals"] as! [[String: Any]]
        #expect(goals.allSatisfy { $0["met"] is NSNull }, "\(goals)")
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            r = f["runs"][sorted(f["runs"].keys())[0]]
            v = r.attrs["pixel_format"]
            print(v.decode() if isinstance(v, bytes) else v)
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "bgr8", "\(py.stdout)")

        // The table says which frames it timed, and that no goal is judged on them.
        let text = try TestSupport.framelab(small + ["--format", "bgr8", "--filter", "invert", "--paths", "simd"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("memcpy of one bgr8 frame at 64x48") && text.stdout.contains("frames: bgr8"))
        #expect(text.stdout.contains("measured only on bgr8"), "\(text.stdout)")
    }

    @Test func outRecordsTheBenchmarkAsARun() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("bench.h5").path
        let r = try TestSupport.framelab(small + ["--filter", "invert", "--paths", "simd,recipe", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let script = """
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            ids = sorted(f["runs"].keys())
            r = f["runs"][ids[0]]
            a = r.attrs
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            t = r["bench_results"][:]
            cases = {(s(x["filter"]), s(x["path"]), int(x["width"]), int(x["height"]), int(x["threads"])) for x in t}
            print(len(ids), s(a["kind"]), s(a["status"]), len(r["timings"]), s(t["isa"][0]) in ("baseline", "avx2", "avx512"))
            print(("invert", "simd", 64, 48, 1) in cases, ("chain4", "recipe", 64, 48, 2) in cases, ("memcpy", "memcpy", 64, 48, 1) in cases)
            print(len(t) >= 3 * len(cases), bool((t["duration_ns"] > 0).all()), '"memcpy_ms"' in s(a["bench_json"]))
            """
        let py = try TestSupport.python(script, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout.split(separator: "\n").map(String.init) == ["1 bench filters completed 0 True", "True True True", "True True True"])
    }

    /// The plugin path: example plugins built by scripts/build-plugins.sh into .build/plugins
    /// (the usual search path), timed in process next to the built-ins on the same frames.
    @Test func pluginPathTimesPluginFiltersBesideBuiltIns() throws {
        let r = try TestSupport.framelab(small + ["--paths", "simd,plugin", "--filter", "invert", "--filter", "negative",
                                                  "--filter", "posterize", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let results = json["results"] as! [[String: Any]]
        func row(_ filter: String, _ path: String) -> [String: Any]? {
            results.first { $0["filter"] as? String == filter && $0["path"] as? String == path }
        }
        #expect(row("invert", "simd") != nil)
        for name in ["negative", "posterize"] {
            let plugin = try #require(row(name, "plugin"), "no plugin row for \(name)")
            let lo = plugin["min_ms"] as! Double, mid = plugin["median_ms"] as! Double
            #expect(lo > 0 && lo <= mid)
            #expect((plugin["vs_memcpy"] as? Double ?? 0) > 0)
            #expect(plugin["runs"] as? Int == 3)
        }
        #expect(!(json["skipped"] as! [String]).contains { $0.contains("plugin") }, "\(json["skipped"]!)")

        // --paths plugin alone: every plugin filter that takes bgra8, as table rows.
        let all = try TestSupport.framelab(small + ["--paths", "plugin"])
        #expect(all.status == 0, "\(all.stderr)")
        let pluginRows = all.stdout.split(separator: "\n").filter { $0.split(separator: " ").dropFirst().first == "plugin" }
        let names = Set(pluginRows.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(names.isSuperset(of: ["negative", "noop", "posterize"]), "\(all.stdout)")
    }

    @Test func badBenchArgumentsAreOneLineErrors() throws {
        for (args, text) in [(["--size", "64by48"], "--size must be WxH"), (["--paths", "gpu"], "unknown path 'gpu'"),
                             (["--filter", "blurry"], "unknown filter 'blurry'"), (["--threads", "0"], "--threads must be at least 1"),
                             (["--format", "gray8"], "--format must be bgra8 or bgr8, got 'gray8'")] {
            let r = try TestSupport.framelab(["bench", "filters"] + args)
            #expect(r.status == 64)
            #expect(r.stderr.hasPrefix("framelab: error: ") && r.stderr.contains(text), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func helpDescribesEveryOption() throws {
        let r = try TestSupport.framelab(["bench", "filters", "--help"])
        #expect(r.status == 0)
        for option in ["--size", "--chain-size", "--filter", "--paths", "--format", "--threads", "--repeats", "--warmup", "--out",
                       "--json", "--plugin-path"] {
            #expect(r.stdout.contains(option), "help lacks \(option)")
        }
        let run = try TestSupport.framelab(["run", "--help"])
        #expect(run.stdout.contains("--path") && run.stdout.contains("recipe"))
    }

    @Test func runOnEveryPathAndFusedRecipe() throws {
        for path in ["scalar", "simd", "opencv", "recipe"] {
            let r = try TestSupport.framelab(["run", "--source", "synthetic:96x64@500", "--frames", "5", "--path", path,
                                              "--filter", "sepia", "--filter", "gamma:power=0.8", "--filter", "gray"])
            #expect(r.status == 0, "\(path): \(r.stderr)")
            #expect(r.stdout.contains("5 frames processed"), "\(path): \(r.stdout)")
            // The recipe path fuses the three filters into one stage.
            #expect(r.stdout.contains("sepia+gamma+gray") == (path == "recipe"), "\(path): \(r.stdout)")
        }
        let bad = try TestSupport.framelab(["run", "--source", "synthetic:96x64@500", "--path", "gpu", "--filter", "sepia"])
        #expect(bad.status == 64 && bad.stderr.contains("--path must be one of scalar, simd, recipe, opencv, got 'gpu'"))
        let noCV = try TestSupport.framelab(["run", "--source", "synthetic:96x64@500", "--frames", "2", "--path", "opencv",
                                             "--filter", "vibrance", "--quiet"])
        #expect(noCV.status == 1)
        #expect(noCV.stderr == "framelab: error: filter 'vibrance' has no OpenCV reference path (OpenCV has no vibrance operation)\n")
    }
}

/// `framelab filters --explain`: the plan a recipe would run.
@Suite struct ExplainCommandTests {
    @Test func explainShowsTheFusedPlan() throws {
        let r = try TestSupport.framelab(["filters", "--explain", "--filter", "sepia", "--filter", "hue:angle=0.5",
                                          "--filter", "gamma:power=0.8", "--filter", "affine:preset=rotate90",
                                          "--size", "640x480", "--threads", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "recipe: 4 operation(s) in 2 pass(es), bgra8 640x480 → bgra8 480x640, rows split across 2 thread(s)")
        #expect(lines.contains("  pass 1 [sepia, hue, gamma]: read bgra8 640x480 → colour matrix (sepia ∘ hue) → lookup table (gamma) → write bgra8 640x480"))
        #expect(lines.contains { $0.hasPrefix("  pass 2 [affine]: one resampling (exact pixel copy)") })
        let bad = try TestSupport.framelab(["filters", "--explain", "--filter", "sepia", "--format", "gray8"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "framelab: error: recipe step 'sepia' does not accept gray8 (accepts bgr8, bgra8)\n")
    }
}
