import FramelabCore
import FramelabTestSupport
import Foundation
import Testing

/// Plugin detectors through the real binary: the example C++ plugin `lbp-face` (built by
/// scripts/build-plugins.sh) listed, evaluated beside OpenCV's detectors, run on a
/// source, in-process and isolated, and recorded to HDF5 that h5py reads back.
@Suite struct PluginDetectorCommandTests {
    static let sample = EvalCommandTests.sample
    static let plugin = PluginBuilder.example("cpp-lbp-face")
    static let improvedLBP = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml"

    static func rows(_ r: TestSupport.ProcessResult) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return try #require(json["detectors"] as? [[String: Any]])
    }

    @Test func detectorsListsThePluginWithTheParametersItDeclares() throws {
        let r = try TestSupport.framelab(["detectors", "--plugin-path", Self.plugin])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("lbp-face ") }, "\(r.stdout)")
        #expect(lines[header].contains("[plugin: \(Self.plugin)]"))
        let parameters = lines[(header + 1)...].prefix { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(parameters.map { String($0.prefix { $0 != ":" }) } == ["scale", "neighbours", "min-size", "cascade"])
        #expect(parameters[0].contains("1.01") && parameters[0].contains("2"))
        #expect(lines.contains { $0.hasPrefix("opencv-haar ") } && lines.contains { $0.hasPrefix("cascade ") })
        let help = try TestSupport.framelab(["detectors", "--help"])
        #expect(help.stdout.contains("--plugin-path") && help.stdout.contains("plugin"))
        let evalHelp = try TestSupport.framelab(["eval", "--help"])
        #expect(evalHelp.stdout.contains("--plugin-path") && evalHelp.stdout.contains("--isolate"))
    }

    @Test func evalComparesThePluginWithOpenCVInProcessAndIsolatedAndRecordsIt() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("plugin-eval.h5").path
        // lbp-face is OpenCV's CascadeClassifier too: with opencv-lbp's cascade and the
        // same parameters it must score exactly as opencv-lbp does.
        let lbp = "lbp-face:cascade=\(Self.improvedLBP)"
        let common = ["eval", "--dataset", Self.sample, "--detector", "opencv-haar", "--detector", lbp,
                      "--detector", "opencv-lbp", "--plugin-path", Self.plugin, "--json", "--quiet"]
        let inProcess = try TestSupport.framelab(common + ["--out", out, "--run-id", "in-process"])
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        let isolated = try TestSupport.framelab(common + ["--isolate", "--plugin-timeout", "60000", "--threads", "2",
                                                             "--out", out, "--run-id", "isolated"])
        #expect(isolated.status == 0, "\(isolated.stderr)")
        for r in [inProcess, isolated] {
            let rows = try Self.rows(r)
            #expect(rows.map { $0["name"] as? String } == ["opencv-haar", lbp, "opencv-lbp"])
            guard rows.count == 3 else { continue }
            for key in ["ap", "precision", "recall", "f1"] {
                #expect(rows[1][key] as? Double == rows[2][key] as? Double, "\(key)")
            }
            #expect((rows[1]["recall"] as? Double ?? 0) >= 0.3)
            #expect(rows[1]["faces"] as? Int == 10 && rows[1]["images"] as? Int == rows[0]["images"] as? Int)
        }
        #expect(try Self.rows(inProcess)[1]["ap"] as? Double == Self.rows(isolated)[1]["ap"] as? Double)

        let script = """
            import sys, h5py, hashlib, numpy as np
            f = h5py.File(sys.argv[1], "r")
            for rid in ["in-process", "isolated"]:
                run = f["runs"][rid]
                d = run["detections"][()]
                by = lambda k: sorted((int(r["frame"]), r["x"], r["y"], r["width"], r["height"], r["score"]) for r in d[d["detector"] == k])
                el = run["elements"][()]
                plugins = [x["element"].decode() for x in el if x["origin"] == b"plugin"]
                digest = hashlib.sha256(open(el[el["origin"] == b"plugin"][0]["plugin_path"].decode(), "rb").read()).hexdigest()
                assert el[el["origin"] == b"plugin"][0]["plugin_sha256"].decode() == digest
                print(rid, str(plugins).replace(" ", ""), run.attrs["plugin_isolated"], len(by(1)), by(1) == by(2),
                      run["detector_metrics"].shape[0], run.attrs["status"])
            """
        let p = try TestSupport.python(script, arguments: [out])
        #expect(p.status == 0, "\(p.stderr)")
        let lines = p.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count == 2, "\(p.stdout)")
        for (i, fields) in lines.enumerated() where fields.count == 7 {
            #expect(fields[1] == "['lbp-face']" && fields[2] == String(i))
            #expect((Int(fields[3]) ?? 0) > 0 && fields[4] == "True", "\(p.stdout)")
            #expect(fields[5] == "3" && fields[6] == "completed")
        }
    }

    @Test func runRecordsAPluginDetectorsFacesInProcessAndIsolated() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("plugin-run.h5").path
        // A generous timeout: the machine running the tests may be busy.
        for (id, extra) in [("a", [String]()), ("b", ["--isolate", "--plugin-timeout", "60000"])] {
            let r = try TestSupport.framelab(["run", "--source", "dataset:" + Self.sample, "--detector", "lbp-face",
                                              "--detector", "opencv-haar", "--plugin-path", Self.plugin, "--out", out,
                                              "--run-id", id] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("detect:lbp-face:"), "\(r.stdout)")
        }
        let p = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            for rid in ["a", "b"]:
                run = f["runs"][rid]
                d = run["detections"][()]
                names = {v: k for k, v in h5py.check_enum_dtype(run["detections"].dtype["detector"]).items() if v >= 0}
                names = [names[i] for i in sorted(names)]
                print(names, int((d["detector"] == 0).sum()) > 0, int((d["detector"] == 1).sum()) > 0, run.attrs["plugin_isolated"],
                      run.attrs["status"])
            """, arguments: [out])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.stdout == """
            ['detect:lbp-face', 'detect:opencv-haar'] True True 0 completed
            ['detect:lbp-face', 'detect:opencv-haar'] True True 1 completed

            """)
    }

    @Test func aFilterIsNotADetectorAndPluginRangesNameTheFile() throws {
        let filter = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--detector", "canny",
                                               "--plugin-path", PluginBuilder.example("cpp-canny")])
        #expect(filter.status != 0 && filter.stderr.contains("'canny'") && filter.stderr.contains("is a filter, not a detector"),
                "\(filter.stderr)")
        let range = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "1",
                                              "--detector", "lbp-face:scale=9", "--plugin-path", Self.plugin])
        #expect(range.status != 0 && range.stderr.contains(Self.plugin) && range.stderr.contains("scale"), "\(range.stderr)")
        #expect(range.stderr.split(separator: "\n").count == 1)
    }
}
