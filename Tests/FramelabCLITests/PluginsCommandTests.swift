import FramelabCore
import FramelabTestSupport
import Foundation
import Testing

/// The plugin workflow through the `framelab` binary: a C filter written outside the
/// repository against the installed header, discovery, `plugins list/describe/check`,
/// runs with plugin stages (in-process and isolated) and their records.
@Suite(.serialized) struct PluginsCommandTests {
    /// A plugin an author writes from the docs: it includes only <framelab_plugin.h>.
    static let darkenSource = """
        #include <framelab_plugin.h>
        #include <stdio.h>
        #include <stdlib.h>

        static fl_plugin_status create(void *u, const fl_plugin_value *v, void **instance, char *err, size_t n) {
            (void)u; (void)err; (void)n;
            double *factor = malloc(sizeof *factor);
            *factor = v[0].number;
            *instance = factor;
            return FL_PLUGIN_OK;
        }

        static fl_plugin_status process(void *instance, const fl_plugin_image *in, fl_plugin_image *out,
                                        char *err, size_t n) {
            double factor = *(double *)instance;
            if (in->format != FL_PLUGIN_BGRA8) { snprintf(err, n, "bgra8 only"); return FL_PLUGIN_UNSUPPORTED; }
            for (int32_t y = 0; y < in->height; y++) {
                const uint8_t *s = (const uint8_t *)in->data + y * in->stride;
                uint8_t *d = (uint8_t *)out->data + y * out->stride;
                for (int32_t x = 0; x < in->width * 4; x++) d[x] = x % 4 == 3 ? s[x] : (uint8_t)(s[x] * factor);
            }
            return FL_PLUGIN_OK;
        }

        static void destroy(void *instance) { free(instance); }

        static const int32_t formats[] = {FL_PLUGIN_BGRA8};
        static const fl_plugin_param params[] = {
            {.struct_size = sizeof(fl_plugin_param), .name = "factor", .type = FL_PARAM_FLOAT, .minimum = 0, .maximum = 1, .default_number = 0.5,
             .description = "brightness kept"},
        };
        static const fl_plugin_element elements[] = {
            {.struct_size = sizeof(fl_plugin_element), .kind = FL_PLUGIN_FILTER, .name = "darken", .version = "0.3.1",
             .description = "scales brightness down", .formats = formats, .format_count = 1,
             .param_stride = sizeof(fl_plugin_param), .params = params, .param_count = 1,
             .create = create, .process = process, .destroy = destroy},
        };
        static const fl_plugin plugin = {FL_PLUGIN_ABI_MAJOR, FL_PLUGIN_ABI_MINOR, sizeof(fl_plugin),
                                         sizeof(fl_plugin_element), "darken", elements, 1};

        FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t major, uint32_t minor) {
            (void)major; (void)minor;
            return &plugin;
        }
        """

    /// Compiles the author's plugin in a temporary folder with the header `plugins sdk` points to.
    func authorsPlugin() throws -> (folder: URL, path: String) {
        let sdk = try TestSupport.framelab(["plugins", "sdk", "--include"])
        #expect(sdk.status == 0, "\(sdk.stderr)")
        let include = sdk.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(FileManager.default.fileExists(atPath: include + "/framelab_plugin.h"))
        let dir = try TestSupport.makeTemporaryDirectory("framelab-author")
        let source = dir.appendingPathComponent("darken.c")
        try Self.darkenSource.write(to: source, atomically: true, encoding: .utf8)
        let path = try PluginBuilder.compile(source.path, name: "darken", in: dir, include: include)
        return (dir, path)
    }

    func expectOneLineError(_ r: TestSupport.ProcessResult, mentions: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status != 0, "exit status", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "expected one line, got: \(r.stderr)", sourceLocation: sourceLocation)
        for m in mentions {
            #expect(r.stderr.contains(m), "'\(r.stderr)' should mention '\(m)'", sourceLocation: sourceLocation)
        }
    }

    @Test func cPluginFromOutsideTheRepositoryRunsAndIsTimedAndRecorded() throws {
        let (dir, path) = try authorsPlugin()
        let list = try TestSupport.framelab(["plugins", "list", "--json", "--plugin-path", dir.path])
        #expect(list.status == 0, "\(list.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [String: Any]
        let elements = json["elements"] as! [[String: Any]]
        let darken = try #require(elements.first { $0["name"] as? String == "darken" })
        #expect(darken["origin"] as? String == path)
        #expect(darken["kind"] as? String == "filter" && darken["version"] as? String == "0.3.1")
        #expect(darken["formats"] as? [String] == ["bgra8"] && darken["status"] as? String == "accepted")
        #expect(elements.contains { $0["name"] as? String == "sepia" && $0["origin"] as? String == "built-in" })

        let out = dir.appendingPathComponent("run.h5").path
        let run = try TestSupport.framelab(["run", "--source", "synthetic:160x120@200", "--frames", "25", "--policy", "keep-all",
                                            "--filter", "darken:factor=0.25", "--filter", "gray",
                                            "--plugin-path", dir.path, "--out", out, "--run-id", "c", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try TestSupport.framelab(["report", out, "--json"])
        let runs = (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as! [String: Any])["runs"] as! [[String: Any]]
        let stages = runs[0]["stages"] as! [[String: Any]]
        #expect(stages.map { $0["name"] as! String } == ["darken", "gray"])
        #expect(stages[0]["frames"] as? Int == 25)
        #expect((stages[0]["p50_ms"] as? Double ?? 0) > 0)

        let py = try TestSupport.python("""
            import sys, h5py, hashlib
            run = h5py.File(sys.argv[1], "r")["runs/c"]
            a = run.attrs
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            el = [r for r in run["elements"][()] if r["origin"] == b"plugin"]
            print([s(r["element"]) for r in el], [s(r["plugin_path"]) for r in el], int(a["plugin_isolated"]))
            print([s(r["version"]) for r in el], [s(r["plugin_sha256"]) == hashlib.sha256(open(s(r["plugin_path"]), "rb").read()).hexdigest() for r in el])
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout == "['darken'] ['\(path)'] 0\n['0.3.1'] [True]\n")
    }

    @Test func environmentVariableAndDescribe() throws {
        let (dir, path) = try authorsPlugin()
        let r = try TestSupport.framelab(["plugins", "describe", "darken"], environment: ["FRAMELAB_PLUGIN_PATH": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("darken (filter) — scales brightness down"))
        #expect(r.stdout.contains("origin: \(path)"))
        #expect(r.stdout.contains("plugin ABI: 2.0"))
        #expect(r.stdout.contains("factor: float, range 0…1, default 0.5 — brightness kept"))
        let builtIn = try TestSupport.framelab(["plugins", "describe", "sepia"])
        #expect(builtIn.stdout.contains("intensity: float, range 0…1, default 1.0"))
        expectOneLineError(try TestSupport.framelab(["plugins", "describe", "nosuch"]), mentions: ["unknown element 'nosuch'"])
    }

    @Test func examplePluginsAreFoundWithoutAnyPath() throws {
        let list = try TestSupport.framelab(["plugins", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        for name in ["posterize", "bright-spot", "negative", "noop", "canny", "lbp-face"] {
            #expect(list.stdout.contains("\n" + name + " "), "\(name) missing from: \(list.stdout)")
        }
        #expect(!list.stdout.contains("rejected"), "\(list.stdout)")
        let lbp = list.stdout.split(separator: "\n").first { $0.hasPrefix("lbp-face ") }
        #expect(lbp?.split(separator: " ").dropFirst().first == "detector", "\(list.stdout)")
        // Long names are printed whole, with the columns after them still apart (the widest
        // name, built-in or plugin, sets the column).
        for name in ["temperatureTint", "highlightShadow", "libfacedetection"] {
            let line = list.stdout.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            #expect(line.map { $0.dropFirst(name.count).drop { $0 == " " }.hasPrefix(name == "libfacedetection" ? "detector" : "filter") } == true,
                    "\(name) cut in: \(list.stdout)")
        }
        let check = try TestSupport.framelab(["plugins", "check", PluginBuilder.example("cpp-lbp-face")])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("lbp-face: ok (detector 1.0.0"))
    }

    @Test func checkDiagnosesEveryBrokenPlugin() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let cases: [(String, String)] = [
            ("NO_ENTRY", "does not export 'framelab_plugin_entry'"),
            ("ABI_MAJOR", "major versions must match"),
            ("SMALL_STRUCT_SIZE", "element #0: struct_size 16 is smaller than ABI 2.0's"),
            ("SMALL_STRIDE", "fl_plugin.element_stride"),
            ("DEFAULT_OUTSIDE_RANGE", "parameter 'gain' default 5.0 is outside 0…2"),
            ("DUPLICATE_PARAMETER", "parameter 'gain' is declared twice"),
            ("UNKNOWN_TYPE", "parameter 'mode' has unknown type 42"),
            ("CREATE_FAILS", "no licence key found"),
            ("RETURNS_ERROR", "processing failed: sensor calibration missing"),
            ("WRONG_SIZE", "returned a 48x61"),
            ("WRONG_FORMAT", "returned a 97x61 gray8 image"),
            ("CRASH", "crashed with signal 11 (SIGSEGV)"),
        ]
        for (defect, words) in cases {
            let path = try PluginBuilder.broken(defect, in: dir)
            expectOneLineError(try TestSupport.framelab(["plugins", "check", path]), mentions: [path, words])
        }
        let text = dir.appendingPathComponent("libtext.so").path
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: text))
        expectOneLineError(try TestSupport.framelab(["plugins", "check", text]), mentions: [text, "cannot load as a shared library"])
        let good = try PluginBuilder.broken("NONE", in: dir)
        let ok = try TestSupport.framelab(["plugins", "check", good])
        #expect(ok.status == 0 && ok.stdout.contains("1 element(s) accepted"), "\(ok.stderr)")
    }

    @Test func runRefusesBadPluginUse() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let crash = try PluginBuilder.broken("CRASH", in: dir)
        expectOneLineError(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "3",
                                                     "--plugin-path", crash, "--filter", "broken"]),
                           mentions: [crash, "crashed with signal 11", "test run"])
        expectOneLineError(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "3",
                                                     "--filter", "negative:amount=5"]),
                           mentions: [PluginBuilder.example("c-invert"), "'amount' = 5.0 is outside 0…1"])
        expectOneLineError(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "3",
                                                     "--filter", "lbp-face"]),
                           mentions: ["'lbp-face'", "is a detector, not a filter"])
        expectOneLineError(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--restart-plugins"]),
                           mentions: ["--restart-plugins needs --isolate"])
        expectOneLineError(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--plugin-timeout", "100"]),
                           mentions: ["--plugin-timeout needs --isolate"])
        expectOneLineError(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--isolate", "--plugin-timeout", "0"]),
                           mentions: ["--plugin-timeout must be at least 1 ms"])
    }

    @Test func isolatedCrashFailsFramesButTheRunCompletes() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugin = try PluginBuilder.broken("CRASH_ON_FRAMES", in: dir)
        let out = dir.appendingPathComponent("crash.h5").path
        for (id, extra) in [("ended", [String]()), ("restarted", ["--restart-plugins"])] {
            let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@200", "--frames", "12", "--policy", "keep-all",
                                              "--plugin-path", plugin, "--filter", "broken", "--isolate",
                                              "--out", out, "--run-id", id] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("crashed with signal 11 (SIGSEGV)"), "\(r.stdout)")
            #expect(r.stdout.contains("(status: completed)"))
        }
        let report = try TestSupport.framelab(["report", out, "--json"])
        let runs = (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as! [String: Any])["runs"] as! [[String: Any]]
        let byID = Dictionary(uniqueKeysWithValues: runs.map { ($0["id"] as! String, $0) })
        // Without restart: frames 0 and 1 pass, frame 2 crashes, the rest fail as "stage ended".
        #expect(byID["ended"]?["processed"] as? Int == 2)
        #expect(byID["ended"]?["failed"] as? Int == 10)
        // With restart: every third call of each worker crashes (frames 2, 5, 8, 11).
        #expect(byID["restarted"]?["processed"] as? Int == 8)
        #expect(byID["restarted"]?["failed"] as? Int == 4)
        // The file says which frame failed and why.
        let py = try TestSupport.python("""
            import sys, h5py
            r = h5py.File(sys.argv[1], "r")["runs/ended"]
            f = r["failures"][:]
            why = {int(x["frame"]): (x["reason"].decode() if isinstance(x["reason"], bytes) else x["reason"]) for x in f}
            print(len(f), int(r["frames"]["failed"].sum()), "SIGSEGV" in why[2], "stage ended" in why[3], "broken" in why[2])
            """, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout == "10 10 True True True\n")
    }

    @Test func pluginErrorsFailTheirFramesInProcess() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugin = try PluginBuilder.broken("FAILS_ON_EVEN_FRAMES", in: dir)
        let out = dir.appendingPathComponent("errors.h5").path
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@200", "--frames", "10", "--policy", "keep-all",
                                          "--plugin-path", plugin, "--filter", "broken", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("5 frames processed, 0 dropped, 5 failed"), "\(r.stdout)")
        #expect(r.stdout.contains("element 'broken' (\(plugin)): processing failed: lost track on call 2"), "\(r.stdout)")
        let report = try TestSupport.framelab(["report", out, "--json"])
        let run = ((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as! [String: Any])["runs"] as! [[String: Any]])[0]
        #expect(run["failed"] as? Int == 5 && run["processed"] as? Int == 5)
    }

    @Test func isolatedHangTimesOutAndTheRunCompletes() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugin = try PluginBuilder.broken("HANG_ON_FRAMES", in: dir)
        let out = dir.appendingPathComponent("hang.h5").path
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@200", "--frames", "10", "--policy", "keep-all",
                                          "--plugin-path", plugin, "--filter", "broken", "--isolate",
                                          "--plugin-timeout", "300", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("timed out after 300 ms"), "\(r.stdout)")
        // Calls 1-4 pass, call 5 hangs and is killed, the stage ends for the rest.
        #expect(r.stdout.contains("4 frames processed, 0 dropped, 6 failed"), "\(r.stdout)")
        let report = try TestSupport.framelab(["report", out, "--json"])
        let run = ((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as! [String: Any])["runs"] as! [[String: Any]])[0]
        #expect(run["failed"] as? Int == 6 && run["status"] as? String == "completed")
    }

    /// A worker stuck in plugin code never reads again, so it cannot see its host go: it
    /// watches its parent and ends when the host is killed (issue: a hung worker outlived its
    /// host at 99% CPU).
    @Test func aHungIsolatedWorkerEndsWhenItsHostIsKilled() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugin = try PluginBuilder.broken("HANG", in: dir)
        let host = Process()
        host.executableURL = URL(fileURLWithPath: TestSupport.framelabBinary)
        host.arguments = ["run", "--source", "synthetic:64x48@50", "--frames", "5", "--plugin-path", plugin, "--filter", "broken",
                          "--isolate", "--plugin-timeout", "600000", "--quiet"]
        host.standardOutput = FileHandle.nullDevice
        host.standardError = FileHandle.nullDevice
        try host.run()
        // The trial's worker (and then the run's) hangs in the first call: find it, kill the host.
        func workers() -> [Int32] {
            let r = try? TestSupport.run("/usr/bin/pgrep", ["-P", "\(host.processIdentifier)", "-f", "framelab-plugin-worker"])
            return (r?.stdout ?? "").split(separator: "\n").compactMap { Int32($0) }
        }
        var found: [Int32] = []
        let deadline = Date().addingTimeInterval(30)
        while found.isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            found = workers()
        }
        try #require(!found.isEmpty, "no worker started")
        Thread.sleep(forTimeInterval: 0.5)
        kill(host.processIdentifier, SIGKILL)
        // Each orphaned worker is gone within a few watch intervals.
        let gone = Date().addingTimeInterval(5)
        while Date() < gone && found.contains(where: { kill($0, 0) == 0 }) { Thread.sleep(forTimeInterval: 0.1) }
        let survivors = found.filter { kill($0, 0) == 0 }
        for pid in survivors { kill(pid, SIGKILL) }  // cleaned up before the host is reaped (it waits for them)
        host.waitUntilExit()
        #expect(survivors.isEmpty, "workers \(survivors) outlived their host")
    }

    @Test func helpDescribesThePluginCommands() throws {
        let plugins = try TestSupport.framelab(["plugins", "--help"])
        for word in ["list", "describe", "check", "sdk", "FRAMELAB_PLUGIN_PATH"] { #expect(plugins.stdout.contains(word)) }
        let run = try TestSupport.framelab(["run", "--help"])
        for flag in ["--plugin-path", "--isolate", "--plugin-timeout", "--restart-plugins"] { #expect(run.stdout.contains(flag)) }
        let sdk = try TestSupport.framelab(["plugins", "sdk", "--help"])
        #expect(sdk.stdout.contains("--path") && sdk.stdout.contains("--include"))
        let path = try TestSupport.framelab(["plugins", "sdk", "--path"])
        #expect(path.stdout.hasSuffix("framelab_plugin.h\n"))
    }
}
