import FramelabCore
import FramelabTestSupport
import Foundation
import Testing

/// Plugins around real third-party face detectors, through the real binary: dlib's HOG
/// and MMOD CNN (Plugins/cpp-dlib-face, linked against Debian's libdlib) and
/// libfacedetection (Plugins/cpp-libfacedetection, which dlopens the yuface wheel's
/// library). They need scripts/build-plugins.sh and the models scripts/fetch-models.sh
/// fetches into Datasets/models.
@Suite struct ThirdPartyPluginDetectorTests {
    static let sample = EvalCommandTests.sample
    static let models = TestSupport.packageRoot.appendingPathComponent("Datasets/models")
    static let dlibPlugin = PluginBuilder.example("cpp-dlib-face")
    static let yufacePlugin = PluginBuilder.example("cpp-libfacedetection")

    /// Each detector with its plugin and the model file it loads by default ("" for none).
    static let detectors: [String: (plugin: String, model: String)] = [
        "dlib-hog": (dlibPlugin, ""),
        "dlib-mmod": (dlibPlugin, models.appendingPathComponent("mmod_human_face_detector.dat").path),
        "libfacedetection": (yufacePlugin, models.appendingPathComponent("yuface/libfacedetection.so").path),
    ]

    /// In process, then in a worker process (a generous timeout: the machine may be busy).
    static let modes: [(id: String, flags: [String])] = [
        ("in-process", []), ("isolated", ["--isolate", "--plugin-timeout", "60000"]),
    ]

    static func requireFiles(_ detector: String) throws -> (plugin: String, model: String) {
        let d = try #require(detectors[detector])
        for file in [d.plugin, d.model] where !file.isEmpty {
            try #require(FileManager.default.fileExists(atPath: file),
                         "\(file) is missing: run scripts/build-plugins.sh and scripts/fetch-models.sh")
        }
        return d
    }

    @Test(arguments: ["dlib-hog", "dlib-mmod", "libfacedetection"])
    func findsTheAstronautInProcessAndIsolatedAndRecordsTheModelChecksum(detector: String) throws {
        let files = try Self.requireFiles(detector)
        let out = try TestSupport.makeTemporaryDirectory().appendingPathComponent("\(detector).h5").path
        for mode in Self.modes {
            // astronaut.png is the first image of the sample.
            let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--limit", "1", "--detector", detector,
                                              "--plugin-path", files.plugin, "--out", out, "--run-id", mode.id,
                                              "--json", "--quiet"] + mode.flags)
            #expect(r.status == 0, "\(mode.id): \(r.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let row = try #require((json["detectors"] as? [[String: Any]])?.first, "\(r.stdout)")
            #expect(row["name"] as? String == detector)
            #expect(row["images"] as? Int == 1 && row["faces"] as? Int == 1 && row["failed"] as? Int == 0, "\(row)")
            #expect(row["recall"] as? Double == 1, "\(mode.id): \(row)")
        }
        // The best detection's IoU with the hand-checked box, computed here rather than
        // trusted from Framelab's matching; the elements row's model and its SHA-256.
        let p = try TestSupport.python("""
            import sys, hashlib, h5py
            f = h5py.File(sys.argv[1], "r")
            for rid in ["in-process", "isolated"]:
                run = f["runs"][rid]
                assert [p.decode() for p in run["images"]["path"]] == ["astronaut.png"]
                g = run["ground_truth"][0]
                def iou(d):
                    w = min(d["x"] + d["width"], g["x"] + g["width"]) - max(d["x"], g["x"])
                    h = min(d["y"] + d["height"], g["y"] + g["height"]) - max(d["y"], g["y"])
                    inter = max(w, 0) * max(h, 0)
                    return inter / (d["width"] * d["height"] + g["width"] * g["height"] - inter)
                best = max(run["detections"][()], key=iou)
                el = run["elements"][run["elements"]["element"] == sys.argv[2].encode()][0]
                model = el["model_path"].decode()
                digest = hashlib.sha256(open(model, "rb").read()).hexdigest() if model else ""
                eyes = "none" if best["left_eye_x"] != best["left_eye_x"] else (
                    "person" if best["left_eye_x"] > best["right_eye_x"] and best["mouth_y"] > best["left_eye_y"] else "image")
                print(rid, round(iou(best), 2) >= 0.5, el["origin"].decode(), run.attrs["plugin_isolated"],
                      model == (__import__("os").path.realpath(sys.argv[3]) if sys.argv[3] else ""),
                      el["model_sha256"].decode() == digest, len(el["model_sha256"]), eyes)
            """, arguments: [out, detector, files.model])
        #expect(p.status == 0, "\(p.stderr)")
        // libfacedetection reports eyes and mouth: leftEye is the person's, on the image's right.
        let eyes = detector == "libfacedetection" ? "person" : "none"
        let checksumLength = files.model.isEmpty ? 0 : 64
        #expect(p.stdout == """
            in-process True plugin 0 True True \(checksumLength) \(eyes)
            isolated True plugin 1 True True \(checksumLength) \(eyes)

            """)
    }

    /// A model file cut short (or the library, for libfacedetection) is a one-line error
    /// naming the file and the element, with a non-zero exit and no crash, both ways.
    @Test(arguments: ["dlib-mmod", "libfacedetection"])
    func aTruncatedModelIsAOneLineErrorNamingTheFile(detector: String) throws {
        let files = try Self.requireFiles(detector)
        let dir = try TestSupport.makeTemporaryDirectory()
        let whole = try Data(contentsOf: URL(fileURLWithPath: files.model))
        let truncated = dir.appendingPathComponent("truncated-" + URL(fileURLWithPath: files.model).lastPathComponent)
        try whole.prefix(whole.count * 2 / 5).write(to: truncated)
        for mode in Self.modes {
            let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--limit", "1",
                                              "--detector", "\(detector):model=\(truncated.path)",
                                              "--plugin-path", files.plugin, "--json"] + mode.flags)
            #expect(r.status == 1 && !r.signalled, "\(mode.id): status \(r.status)\n\(r.stderr)")
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("libpng warning") }
            #expect(lines.count == 1, "\(mode.id): \(r.stderr)")
            let line = String(lines.first ?? "")
            #expect(line.hasPrefix("framelab: error:") && line.contains("'\(detector)'") && line.contains(truncated.path),
                    "\(mode.id): \(line)")
            #expect(line.contains(detector == "dlib-mmod" ? "not a complete dlib MMOD" : "is truncated"), "\(line)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func detectorsShowsTheDefaultModelsTheirPresetsAndTheBLAS() throws {
        _ = try Self.requireFiles("dlib-mmod")
        let r = try TestSupport.framelab(["detectors", "--plugin-path", Self.dlibPlugin, "--plugin-path", Self.yufacePlugin])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        func parameters(of name: String) -> [String] {
            guard let header = lines.firstIndex(where: { $0.hasPrefix(name + " ") }) else { return [] }
            return lines[(header + 1)...].prefix { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(parameters(of: "dlib-hog").map { String($0.prefix { $0 != ":" }) } == ["accuracy", "upsample", "adjust-threshold"])
        #expect(parameters(of: "dlib-hog").first?.contains("default high") == true)
        let mmod = parameters(of: "dlib-mmod")
        #expect(mmod.map { String($0.prefix { $0 != ":" }) } == ["model", "accuracy", "upsample", "adjust-threshold"])
        // Found beside the plugin's checkout (dladdr), as an absolute path the run can hash.
        #expect(mmod.first?.contains("default \(Self.models.path)/mmod_human_face_detector.dat") == true, "\(mmod)")
        #expect(mmod.dropFirst().first?.contains("default low") == true)
        #expect(parameters(of: "libfacedetection").first?.contains("default \(Self.models.path)/yuface/libfacedetection.so") == true)
        // scripts/setup.sh installs OpenBLAS; the reference BLAS makes the CNN about 4x slower.
        let header = try #require(lines.first { $0.hasPrefix("dlib-mmod ") })
        #expect(header.contains("BLAS: OpenBLAS"), "\(header)")

        let elsewhere = try TestSupport.framelab(["detectors", "--plugin-path", Self.dlibPlugin],
                                                 environment: ["FRAMELAB_MODELS": "/srv/models"])
        #expect(elsewhere.stdout.contains("default /srv/models/mmod_human_face_detector.dat"), "\(elsewhere.stdout)")
    }

    /// The first detector's scores in `eval --json`'s document.
    static func firstDetector(_ json: String) -> [String: Any]? {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["detectors"] as? [[String: Any]])?.first
    }

    /// Upsampling multiplies the CNN's memory by 4 a level: past its limit a frame fails with
    /// a message saying what to lower, instead of the process being killed for memory.
    @Test func anUpsampleBeyondTheMemoryLimitFailsTheFrameNotTheProcess() throws {
        _ = try Self.requireFiles("dlib-mmod")
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--limit", "1", "--detector", "dlib-mmod:upsample=3",
                                          "--plugin-path", Self.dlibPlugin, "--json", "--quiet"])
        #expect(!r.signalled)
        #expect(r.stderr.contains("512x512 image 4096x4096, more than the 4-megapixel limit; use a lower upsample"), "\(r.stderr)")
        #expect(Self.firstDetector(r.stdout)?["failed"] as? Int == 1, "\(r.stdout)")
    }

    /// The test run before the first frame uses the run's own parameters: a model given with
    /// `model=` works even where the default model folder does not exist.
    @Test func aModelGivenElsewhereWorksWithoutTheDefaultOne() throws {
        let files = try Self.requireFiles("dlib-mmod")
        let r = try TestSupport.framelab(["eval", "--dataset", Self.sample, "--limit", "1",
                                          "--detector", "dlib-mmod:model=\(files.model)", "--plugin-path", files.plugin,
                                          "--json", "--quiet"], environment: ["FRAMELAB_MODELS": "/nonexistent"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.firstDetector(r.stdout)?["recall"] as? Double == 1, "\(r.stdout)")
    }
}
