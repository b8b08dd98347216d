import Foundation
import FramelabTestSupport
import Testing

/// Files on the plugin path that are not a loadable library for this machine are diagnosed
/// in words before dlopen (which called another architecture's library "No such file or
/// directory" and died of SIGBUS on a truncated one).
@Suite struct PluginFileCheckTests {
    @Test func anotherArchitectureAndATruncatedLibraryAreNamedAsSuch() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let good = try PluginBuilder.compile(PluginBuilder.exampleC, name: "good", in: dir)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        // e_machine (offset 18, little-endian): the same plugin as if built for the other architecture.
        #if arch(arm64)
        let (other, expectedArch) = (UInt8(62), "built for x86-64; this machine is arm64")
        #else
        let (other, expectedArch) = (UInt8(183), "built for arm64; this machine is x86-64")
        #endif
        var foreign = bytes
        foreign[18] = other; foreign[19] = 0
        let arm = dir.appendingPathComponent("libarm.so").path
        try Data(foreign).write(to: URL(fileURLWithPath: arm))
        let cut = dir.appendingPathComponent("libcut.so").path
        bytes.removeLast(bytes.count / 2)
        try Data(bytes).write(to: URL(fileURLWithPath: cut))
        let text = dir.appendingPathComponent("libtext.so").path
        try "not a library".write(toFile: text, atomically: true, encoding: .utf8)
        for (path, expected) in [(arm, expectedArch), (cut, "truncated"), (text, "not an ELF file")] {
            let r = try TestSupport.framelab(["plugins", "check", path])
            #expect(r.status != 0 && !r.signalled, "\(path): \(r.status)")
            #expect((r.stdout + r.stderr).contains(expected), "\(path): \(r.stdout)\(r.stderr)")
        }
        let ok = try TestSupport.framelab(["plugins", "check", good])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
    }
}
