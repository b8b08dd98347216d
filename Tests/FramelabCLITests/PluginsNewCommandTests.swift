import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// `framelab plugins new`: each language's project, written into a folder outside the
/// repository, builds with its one command (C and C++ with warnings as errors), passes
/// `plugins check`, and runs; bad names and occupied folders are one-line errors.
@Suite(.serialized) struct PluginsNewCommandTests {
    /// The flags every C and C++ skeleton must compile clean under.
    static let strict = "-O2 -Wall -Wextra -pedantic -Werror"

    /// `plugins new` into a fresh folder (not yet existing, two levels down); returns it.
    func newProject(_ name: String, lang: String, kind: String) throws -> URL {
        let folder = try TestSupport.makeTemporaryDirectory("framelab-plugins-new").appendingPathComponent("work/\(name)")
        let r = try TestSupport.framelab(["plugins", "new", name, "--lang", lang, "--kind", kind, "--out", folder.path])
        #expect(r.status == 0, "plugins new: \(r.stderr)")
        #expect(r.stdout.contains("framelab plugins check"), "the next commands are printed: \(r.stdout)")
        return folder
    }

    /// Runs the project's build command in `folder`; a failure is recorded with its output.
    func build(_ folder: URL, _ command: [String]) throws {
        let r = try TestSupport.run("/usr/bin/env", command)
        #expect(r.status == 0, "\(command.joined(separator: " ")) in \(folder.path): \(r.stdout)\(r.stderr)")
    }

    /// `plugins check` accepts the library and lists the element as the kind asked for.
    func expectChecked(_ library: URL, element: String, kind: String) throws {
        #expect(FileManager.default.fileExists(atPath: library.path), "the build made \(library.path)")
        let r = try TestSupport.framelab(["plugins", "check", library.path])
        #expect(r.status == 0, "plugins check: \(r.stderr)")
        #expect(r.stdout.contains("\(element): ok (\(kind) 0.1.0"), "\(r.stdout)")
        #expect(r.stdout.contains("1 element(s) accepted"), "\(r.stdout)")
    }

    /// Runs the element on synthetic frames through `framelab run`, found by --plugin-path.
    func runElement(_ element: String, kind: String, pluginPath: URL, extra: [String] = []) throws -> TestSupport.ProcessResult {
        let cache = try TestSupport.makeTemporaryDirectory("framelab-plugins-new-cache")
        return try TestSupport.framelab(["run", "--plugin-path", pluginPath.path, "--source", "synthetic:96x64@30", "--frames", "3",
                                         kind == "filter" ? "--filter" : "--detector", element, "--quiet"] + extra,
                                        environment: ["FRAMELAB_CACHE_DIR": cache.path])
    }

    /// The mean gray level of the PNG snapshots in `folder`.
    func meanGray(of folder: URL) throws -> Double {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        var (sum, count) = (0, 0)
        for file in files {
            let image = try ImageCodec.read(folder.appendingPathComponent(file).path, as: .gray8)
            image.withUnsafeBytes { bytes in
                for y in 0..<image.height {
                    for x in 0..<image.width { sum += Int(bytes[y * image.stride + x]) }
                }
            }
            count += image.pixelCount
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }

    @Test func cFilterBuildsCleanPassesCheckAndRuns() throws {
        let folder = try newProject("brighten", lang: "c", kind: "filter")
        for file in ["brighten.c", "include/framelab_plugin.h", "Makefile", "README.md"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file)")
        }
        try build(folder, ["make", "-C", folder.path, "CFLAGS=\(Self.strict)"])
        try expectChecked(folder.appendingPathComponent("libbrighten.so"), element: "brighten", kind: "filter")
        // Visible: with the default offset the frames are brighter; --snapshot makes its nested folder.
        let shots = folder.appendingPathComponent("out/a/b")
        let r = try runElement("brighten", kind: "filter", pluginPath: folder,
                               extra: ["--snapshot", shots.path, "--snapshot-every", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let pngs = ((try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []).filter { $0.hasSuffix(".png") }
        #expect(pngs.count == 3, "\(pngs)")
        let plainShots = folder.appendingPathComponent("out/plain")
        let plain = try runElement("brighten:offset=0", kind: "filter", pluginPath: folder,
                                   extra: ["--snapshot", plainShots.path, "--snapshot-every", "1"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let (brighter, unchanged) = (try meanGray(of: shots), try meanGray(of: plainShots))
        #expect(brighter > unchanged + 25, "offset 40 brightens: mean gray \(brighter) vs \(unchanged) with offset 0")
        let out = try TestSupport.framelab(["plugins", "describe", "brighten", "--plugin-path", folder.path])
        #expect(out.stdout.contains("offset: int, range -255"), "\(out.stdout)\(out.stderr)")
    }

    @Test func cDetectorBuildsCleanPassesCheckAndRuns() throws {
        let folder = try newProject("centre-box", lang: "c", kind: "detector")
        try build(folder, ["make", "-C", folder.path, "CFLAGS=\(Self.strict)"])
        try expectChecked(folder.appendingPathComponent("libcentre-box.so"), element: "centre-box", kind: "detector")
        let r = try runElement("centre-box", kind: "detector", pluginPath: folder)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func cppFilterAndDetectorBuildCleanAsCpp17AndPassCheck() throws {
        for (name, kind) in [("cpp-brighten", "filter"), ("cpp-box", "detector")] {
            let folder = try newProject(name, lang: "cpp", kind: kind)
            let makefile = try String(contentsOf: folder.appendingPathComponent("Makefile"), encoding: .utf8)
            #expect(makefile.contains("-std=c++17"), "\(makefile)")
            try build(folder, ["make", "-C", folder.path, "CXXFLAGS=\(Self.strict)"])
            try expectChecked(folder.appendingPathComponent("lib\(name).so"), element: name, kind: kind)
        }
    }

    /// The slow one (SwiftPM builds the copied kit and the element, ~1 min): one case only.
    @Test func swiftFilterBuildsOutOfTreeAndPassesCheck() throws {
        let folder = try newProject("swift-brighten", lang: "swift", kind: "filter")
        for file in ["Package.swift", "Sources/SwiftBrightenFilterPlugin/SwiftBrightenFilter.swift",
                     "Sources/FramelabPluginKit/PluginExport.swift", "Sources/CFramelabPlugin/include/framelab_plugin.h"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file)")
        }
        try build(folder, ["swift", "build", "-c", "release", "--package-path", folder.path])
        try expectChecked(folder.appendingPathComponent(".build/release/libswift-brighten.so"), element: "swift-brighten", kind: "filter")
    }

    /// Python: one NAME.py, nothing to build; it passes `plugins check` and runs as written.
    @Test func pythonFilterAndDetectorPassCheckAndRun() throws {
        let filter = try newProject("py-brighten", lang: "python", kind: "filter")
        #expect(try FileManager.default.contentsOfDirectory(atPath: filter.path).sorted() == ["README.md", "py-brighten.py"])
        try expectChecked(filter.appendingPathComponent("py-brighten.py"), element: "py-brighten", kind: "filter")
        let shots = filter.appendingPathComponent("shots"), plainShots = filter.appendingPathComponent("plain")
        let r = try runElement("py-brighten", kind: "filter", pluginPath: filter, extra: ["--snapshot", shots.path, "--snapshot-every", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let plain = try runElement("py-brighten:offset=0", kind: "filter", pluginPath: filter,
                                   extra: ["--snapshot", plainShots.path, "--snapshot-every", "1"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let (brighter, unchanged) = (try meanGray(of: shots), try meanGray(of: plainShots))
        #expect(brighter > unchanged + 25, "offset 40 brightens: mean gray \(brighter) vs \(unchanged) with offset 0")
        let readme = try String(contentsOf: filter.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("framelab plugins check py-brighten.py") && readme.contains("nothing to build"), "\(readme)")

        let detector = try newProject("py-box", lang: "python", kind: "detector")
        try expectChecked(detector.appendingPathComponent("py-box.py"), element: "py-box", kind: "detector")
        let d = try runElement("py-box", kind: "detector", pluginPath: detector)
        #expect(d.status == 0, "\(d.stderr)")
    }

    @Test func theDefaultFolderIsTheNameInTheWorkingFolder() throws {
        let dir = try TestSupport.makeTemporaryDirectory("framelab-plugins-new")
        let quoted = "'" + TestSupport.framelabBinary.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let r = try TestSupport.run("/bin/sh", ["-c", "cd '\(dir.path)' && \(quoted) plugins new my_filter --lang cpp --kind filter --json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("my_filter/my_filter.cpp").path))
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(json?["folder"] as? String == "my_filter", "\(r.stdout)")
        #expect(json?["build"] as? String == "make", "\(r.stdout)")
        #expect(json?["library"] as? String == "libmy_filter.so", "\(r.stdout)")
        #expect((json?["files"] as? [String])?.contains("include/framelab_plugin.h") == true, "\(r.stdout)")
    }

    @Test func aWriteThatFailsPartwayLeavesNoHalfProject() throws {
        // A 4 KB file-size limit: the Makefile fits, the copied plugin header (about 12 KB)
        // does not, so the write fails after some files exist (EFBIG; framelab ignores SIGXFSZ).
        let dir = try TestSupport.makeTemporaryDirectory("framelab-plugins-new")
        let folder = dir.appendingPathComponent("half").path
        let r = try TestSupport.run("/bin/bash", ["-c", "ulimit -f 4; exec \"$0\" plugins new half --lang c --kind filter --out \"$1\"",
                                                  TestSupport.framelabBinary, folder])
        #expect(r.status == 1, "exit status \(r.status): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("cannot write the plugin project into '\(folder)'"),
                "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "no folder, no staging left behind")
    }

    @Test func badNamesAndOccupiedFoldersAreOneLineErrors() throws {
        let dir = try TestSupport.makeTemporaryDirectory("framelab-plugins-new")
        func expectRefused(_ arguments: [String], mentions: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let r = try TestSupport.framelab(["plugins", "new"] + arguments)
            #expect(r.status == 1, "exit status for \(arguments): \(r.status)", sourceLocation: sourceLocation)
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stderr.contains(mentions), "'\(r.stderr)' should mention '\(mentions)'", sourceLocation: sourceLocation)
        }
        for bad in ["1filter", "my filter", "a/b", "_x", "x.y", "naïve", String(repeating: "a", count: 65)] {
            try expectRefused([bad, "--lang", "c", "--kind", "filter", "--out", dir.appendingPathComponent("x").path],
                              mentions: "plugin name")
        }
        try expectRefused(["sepia", "--lang", "c", "--kind", "filter", "--out", dir.appendingPathComponent("s").path],
                          mentions: "built-in")
        let occupied = dir.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: occupied.appendingPathComponent("notes.txt"))
        try expectRefused(["fine", "--lang", "c", "--kind", "filter", "--out", occupied.path], mentions: "is not empty")
        #expect(try String(contentsOf: occupied.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.path) == ["notes.txt"])
        try expectRefused(["fine", "--lang", "c", "--kind", "filter", "--out", occupied.appendingPathComponent("notes.txt").path],
                          mentions: "is not a folder")
        // Nothing was written for a refused name.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
        let help = try TestSupport.framelab(["plugins", "new", "--help"])
        #expect(help.stdout.contains("swift or python") && help.stdout.contains("NAME.py"), "\(help.stdout)")
    }

    @Test func anUnknownElementSaysWhichFoldersWereSearched() throws {
        let dir = try TestSupport.makeTemporaryDirectory("framelab-plugins-new")
        for arguments in [["run", "--source", "synthetic:64x48@30", "--frames", "1", "--filter", "no-such-filter"],
                          ["run", "--source", "synthetic:64x48@30", "--frames", "1", "--detector", "no-such-detector"],
                          ["plugins", "describe", "no-such-element"]] {
            let r = try TestSupport.framelab(arguments + ["--plugin-path", dir.path])
            #expect(r.status != 0 && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
            for part in ["--plugin-path", "the working folder is not searched", "searched: \(dir.path)"] {
                #expect(r.stderr.contains(part), "\(arguments): '\(r.stderr)' should mention '\(part)'")
            }
        }
    }
}
