import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// `run --tune`: a parameter of a running plugin element changes between frames, and the
/// element sees each frame's own index (ABI 2's set_parameter and process_frame), checked on
/// the snapshots the run writes.
@Suite struct RunTuneTests {
    @Test(arguments: [false, true])
    func aChangeReachesTheRunningElementWithoutANewInstance(isolated: Bool) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugins = dir.appendingPathComponent("plugins")
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        _ = try PluginBuilder.compile(TestSupport.packageRoot.appendingPathComponent("Tests/PluginABI/stamp_plugin.c").path,
                                      name: "stamp", in: plugins)
        let tune = dir.appendingPathComponent("tune").path
        let h5 = dir.appendingPathComponent("run.h5").path
        try Data("# a comment, then a change\nstamp gain=9\nstamp loudness=3\n".utf8).write(to: URL(fileURLWithPath: tune))
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "24", "--max-fps", "30",
                                          "--filter", "gray", "--filter", "stamp:gain=2", "--plugin-path", plugins.path,
                                          "--tune", tune, "--snapshot", shots.path, "--snapshot-every", "1", "--quiet", "--out", h5]
                                         + (isolated ? ["--isolate"] : []))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("framelab: --tune: stamp gain=9 from frame"), "\(r.stderr)")
        #expect(r.stderr.contains("unknown parameter 'loudness'"), "a refused change is one line: \(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: shots.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files.count == 24)
        // Row 0 of each snapshot: [frame index, pts ms, arrival µs, instances created, gain].
        var gains: [Int] = [], creates: Set<Int> = []
        for file in files {
            let image = try ImageCodec.read(shots.appendingPathComponent(file).path, as: .gray8)
            let index = Int(file.dropFirst("frame-".count).prefix(8))!
            #expect(Int(image.pixel(x: 0, y: 0)[0]) == index % 256, "\(file): the element was told its frame's index")
            creates.insert(Int(image.pixel(x: 3, y: 0)[0]))
            gains.append(Int(image.pixel(x: 4, y: 0)[0]))
        }
        #expect(gains.last == 9, "the change took effect: \(gains)")
        #expect(gains.drop { $0 == 2 }.allSatisfy { $0 == 9 }, "2 until the change, then 9: \(gains)")
        #expect(creates.count == 1, "one instance all run long: \(creates)")
        // The record keeps the change, at the first frame that had it.
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            run = f["runs"][list(f["runs"].keys())[0]]
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            for e in run["events"][:]:
                if s(e["kind"]) == "param": print(int(e["frame"]), s(e["detail"]))
            """, arguments: [h5])
        #expect(py.status == 0, "\(py.stderr)")
        let first = gains.firstIndex(of: 9).map { Int(files[$0].dropFirst("frame-".count).prefix(8))! }
        #expect(py.stdout == "\(first ?? -1) stamp gain=9\n", "\(py.stdout)")
    }

    @Test func tuneIsRefusedWithSeveralWorkersAndForAMissingFile() throws {
        let missing = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--tune", "/nonexistent/tune"])
        #expect(missing.status != 0 && missing.stderr.contains("--tune '/nonexistent/tune'"), "\(missing.stderr)")
        let dir = try TestSupport.makeTemporaryDirectory()
        let tune = dir.appendingPathComponent("tune").path
        try Data().write(to: URL(fileURLWithPath: tune))
        let workers = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "2", "--workers", "2", "--tune", tune])
        #expect(workers.status != 0 && workers.stderr.contains("--tune needs --workers 1"), "\(workers.stderr)")
    }
}
