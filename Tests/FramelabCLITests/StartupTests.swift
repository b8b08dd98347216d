import Foundation
import FramelabTestSupport
import Testing

/// A start loads only what every command needs: OpenCV's codecs, video, window, detector and
/// DNN modules (hundreds of libraries between them) come from libFramelabCVOnDemand.so on
/// first use, HDF5 and its 30 libraries from libFramelabHDF5OnDemand.so, and libxml2 not at
/// all (docs/architecture.md, "Start-up").
@Suite struct StartupTests {
    /// The libraries the dynamic loader opened for `framelab ARGS`, from its own trace
    /// (`LD_DEBUG=files`, written to a file: framelab captures its stderr while it decodes).
    func librariesLoaded(_ arguments: [String], environment: [String: String] = [:]) throws -> (TestSupport.ProcessResult, [String]) {
        let dir = try TestSupport.makeTemporaryDirectory("startup")
        let prefix = dir.appendingPathComponent("ld").path
        let r = try TestSupport.framelab(arguments, environment: environment.merging(["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": prefix]) { $1 })
        var trace = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasPrefix("ld.") {
            trace += (try? String(contentsOfFile: dir.appendingPathComponent(name).path, encoding: .utf8)) ?? ""
        }
        let opened = trace.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
        return (r, opened)
    }

    @Test func versionLoadsNoneOfTheOnDemandModules() throws {
        let (r, opened) = try librariesLoaded(["--version"])
        #expect(r.status == 0)
        #expect(opened.contains { $0.hasPrefix("libopencv_core") }, "the trace names what it loads: \(opened)")
        for module in ["libopencv_imgcodecs", "libopencv_videoio", "libopencv_highgui", "libopencv_objdetect",
                       "libopencv_dnn", "libFramelabCVOnDemand", "libxml2", "libhdf5", "libcurl", "libFramelabHDF5OnDemand"] {
            #expect(!opened.contains { $0.hasPrefix(module) }, "\(module) was loaded by --version")
        }
    }

    @Test func decodingAnImageLoadsTheOnDemandLibrary() throws {
        let image = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let (r, opened) = try librariesLoaded(["run", "--source", "image:" + image, "--filter", "gray", "--quiet"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(opened.contains { $0.hasSuffix("libFramelabCVOnDemand.so") }, "\(opened)")
        #expect(opened.contains { $0.hasPrefix("libopencv_imgcodecs") })
    }

    @Test func aMissingOnDemandLibraryIsAOneLineErrorNamingTheInput() throws {
        let image = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let r = try TestSupport.framelab(["run", "--source", "image:" + image, "--filter", "gray"],
                                         environment: ["FRAMELAB_CV_ON_DEMAND": "/nonexistent/libFramelabCVOnDemand.so"])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(lines.first?.contains(image) == true && lines.first?.contains("libFramelabCVOnDemand.so") == true, "\(r.stderr)")
        // Built-in work that needs no codec still runs.
        #expect(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "3", "--filter", "sepia", "--quiet"],
                                         environment: ["FRAMELAB_CV_ON_DEMAND": "/nonexistent/libFramelabCVOnDemand.so"]).status == 0)
    }

    @Test func recordingLoadsHDF5OnFirstUse() throws {
        let out = try TestSupport.makeTemporaryDirectory("startup-hdf5").appendingPathComponent("run.h5").path
        let (r, opened) = try librariesLoaded(["run", "--source", "synthetic:64x48@30", "--frames", "3", "--filter", "sepia",
                                               "--quiet", "--out", out])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(opened.contains { $0.hasSuffix("libFramelabHDF5OnDemand.so") }, "\(opened)")
        #expect(opened.contains { $0.hasPrefix("libhdf5") })
        #expect(try TestSupport.framelab(["report", out, "--json"]).status == 0)
    }

    @Test func aMissingHDF5LibraryIsAOneLineErrorBeforeAnythingRuns() throws {
        let out = try TestSupport.makeTemporaryDirectory("startup-hdf5-missing").appendingPathComponent("run.h5").path
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "3", "--filter", "sepia", "--out", out],
                                         environment: ["FRAMELAB_HDF5_ON_DEMAND": "/nonexistent/libFramelabHDF5OnDemand.so"])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(lines.first?.contains("libFramelabHDF5OnDemand.so") == true && lines.first?.contains("/nonexistent/") == true,
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A run that records nothing needs no HDF5.
        #expect(try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "3", "--filter", "sepia", "--quiet"],
                                         environment: ["FRAMELAB_HDF5_ON_DEMAND": "/nonexistent/libFramelabHDF5OnDemand.so"]).status == 0)
    }
}
