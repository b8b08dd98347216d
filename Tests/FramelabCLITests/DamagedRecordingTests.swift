import Foundation
import FramelabTestSupport
import Testing

/// libhdf5 1.10.8 crashes (SIGSEGV) or loops forever on some damaged files, found by the
/// hdf5 fuzz target (Tests/Fuzz/libhdf5-known). A command handed one reads it first in a
/// child process: one line naming the file, exit 1, never a crash or a hang.
@Suite struct DamagedRecordingTests {
    static let known = TestSupport.packageRoot.appendingPathComponent("Tests/Fuzz/libhdf5-known")
    /// The hang is cut after this many seconds.
    static let environment = ["FRAMELAB_VET_TIMEOUT": "5"]

    static func copy(_ name: String, into dir: URL) throws -> String {
        let path = dir.appendingPathComponent("runs.h5").path
        try FileManager.default.copyItem(atPath: known.appendingPathComponent(name).path, toPath: path)
        return path
    }

    static func expectOneLineNaming(_ path: String, _ r: TestSupport.ProcessResult, _ words: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.signalled && r.status == 1, "status \(r.status)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("'\(path)'") && lines[0].contains(words), "\(r.stderr)",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: [("attribute-message-damaged.h5", "crashed libhdf5"),
                      ("heap-free-space-of-size-0.h5", "did not end in 5 s")])
    func readingCommandsSayTheFileIsDamaged(file: String, words: String) throws {
        let dir = try TestSupport.makeTemporaryDirectory("damaged-h5")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.copy(file, into: dir)
        Self.expectOneLineNaming(path, try TestSupport.framelab(["report", path], environment: Self.environment), words)
        Self.expectOneLineNaming(path, try TestSupport.framelab(["compare", path, path], environment: Self.environment), words)
    }

    @Test func aRunRefusesADamagedOutputFileAndLeavesItAsItWas() throws {
        let dir = try TestSupport.makeTemporaryDirectory("damaged-h5")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.copy("attribute-message-damaged.h5", into: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let r = try TestSupport.framelab(["run", "--source", "synthetic:64x48@30", "--frames", "5", "--out", path, "--quiet"],
                                         environment: Self.environment)
        Self.expectOneLineNaming(path, r, "crashed libhdf5")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
