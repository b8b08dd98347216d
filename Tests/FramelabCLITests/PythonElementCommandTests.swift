import FramelabTestSupport
import Foundation
import Testing

/// Python elements through the command line: `plugins check/describe/list --json` name the
/// .py as the source file, `run --plugin-path Plugins/python-example` writes an HDF5 run that
/// records it (in process and isolated), and a broken .py or a missing numpy is one line.
@Suite(.serialized) struct PythonElementCommandTests {
    static let folder = TestSupport.packageRoot.appendingPathComponent("Plugins/python-example").path
    static let example = folder + "/elements.py"

    func framelab(_ arguments: [String], environment: [String: String] = [:]) throws -> TestSupport.ProcessResult {
        let cache = try TestSupport.makeTemporaryDirectory("framelab-python-cache")
        return try TestSupport.framelab(arguments, environment: ["FRAMELAB_CACHE_DIR": cache.path].merging(environment) { $1 })
    }

    func json(_ r: TestSupport.ProcessResult) throws -> [String: Any] {
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    }

    @Test func checkDescribeAndListShowThePyFile() throws {
        let check = try json(try framelab(["plugins", "check", Self.example, "--json"]))
        #expect(check["path"] as? String == Self.example && check["accepted"] as? Bool == true, "\(check)")
        let checked = (check["elements"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "")=\($0["accepted"] ?? "")" }
        #expect(checked == ["py-vignette=1", "py-noop=1", "py-bright=1"], "\(checked)")

        let describe = try json(try framelab(["plugins", "describe", "py-vignette", "--plugin-path", Self.folder, "--json"]))
        #expect(describe["origin"] as? String == Self.example && describe["kind"] as? String == "filter")
        let parameter = (describe["parameters"] as? [[String: Any]])?.first
        #expect(parameter?["name"] as? String == "strength", "\(describe)")

        let list = try json(try framelab(["plugins", "list", "--plugin-path", Self.folder, "--json"]))
        let elements = list["elements"] as? [[String: Any]] ?? []
        let bright = try #require(elements.first { $0["name"] as? String == "py-bright" })
        #expect(bright["origin"] as? String == Self.example && bright["kind"] as? String == "detector"
                && bright["status"] as? String == "accepted", "\(bright)")
        let text = try framelab(["plugins", "describe", "py-bright", "--plugin-path", Self.folder])
        #expect(text.stdout.contains("origin: \(Self.example)") && text.stdout.contains("threshold: int"), "\(text.stdout)")
    }

    @Test func runWritesAnHDF5RunRecordingThePythonElements() throws {
        for isolate in [false, true] {
            let dir = try TestSupport.makeTemporaryDirectory("framelab-python-run")
            let out = dir.appendingPathComponent("run.h5").path
            let r = try framelab(["run", "--plugin-path", Self.folder, "--source", "synthetic:160x120@200", "--frames", "12",
                                  "--policy", "keep-all", "--filter", "py-vignette:strength=0.9", "--detector", "py-bright",
                                  "--out", out, "--run-id", "py", "--quiet"] + (isolate ? ["--isolate"] : []))
            #expect(r.status == 0, "isolate \(isolate): \(r.stderr)")
            let py = try TestSupport.python("""
                import sys, h5py
                run = h5py.File(sys.argv[1], "r")["runs/py"]
                def s(v): return v.decode() if isinstance(v, bytes) else str(v)
                el = [r for r in run["elements"][()] if r["origin"] == b"plugin"]
                print(sorted(s(r["element"]) for r in el), sorted(set(s(r["plugin_path"]) for r in el)), int(run.attrs["plugin_isolated"]))
                """, arguments: [out])
            #expect(py.status == 0, "\(py.stderr)")
            #expect(py.stdout == "['py-bright', 'py-vignette'] ['\(Self.example)'] \(isolate ? 1 : 0)\n", "\(py.stdout)")
        }
    }

    @Test func aBrokenPyFileIsSkippedWithOneLineAndABadCallFailsTheRunInOne() throws {
        let dir = try TestSupport.makeTemporaryDirectory("framelab-python-broken")
        try Data("import framelab_plugin as fl\n@fl.filter('typo', description='d')\ndef f(frame, out, params)\n    pass\n".utf8)
            .write(to: dir.appendingPathComponent("typo.py"))
        let check = try framelab(["plugins", "check", dir.appendingPathComponent("typo.py").path])
        #expect(check.status == 1)
        #expect(check.stderr.contains(dir.appendingPathComponent("typo.py").path + ": SyntaxError"), "\(check.stderr)")
        #expect(!check.stderr.contains("Traceback"), "\(check.stderr)")
        let list = try framelab(["plugins", "list", "--plugin-path", dir.path + ":" + Self.folder])
        #expect(list.status == 0 && list.stdout.contains("py-vignette"), "the other file still loads: \(list.stdout)\(list.stderr)")

        try Data("import framelab_plugin as fl\n@fl.filter('boom', description='d')\ndef boom(frame, out, params):\n    raise RuntimeError('no luck')\n".utf8)
            .write(to: dir.appendingPathComponent("boom.py"))
        let run = try framelab(["run", "--plugin-path", dir.appendingPathComponent("boom.py").path, "--source", "synthetic:64x48@30",
                                "--frames", "3", "--filter", "boom", "--quiet"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("element 'boom' (\(dir.appendingPathComponent("boom.py").path))")
                && run.stderr.contains("RuntimeError: no luck (line 4 in boom)"), "\(run.stderr)")
    }

    @Test func missingNumpyIsOneLineNamingTheFile() throws {
        let empty = try TestSupport.makeTemporaryDirectory("framelab-python-no-venv")
        let r = try framelab(["plugins", "check", Self.example], environment: ["FRAMELAB_PYTHON_VENV": empty.path])
        #expect(r.status == 1)
        let line = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.contains(Self.example + ": numpy is not importable") && line.contains("FRAMELAB_PYTHON_VENV"), "\(r.stderr)")
    }
}
