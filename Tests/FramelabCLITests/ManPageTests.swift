import Foundation
import FramelabTestSupport
import Testing

/// The manual page scripts/build.sh writes (scripts/man-page.sh: `swift package
/// generate-manual`): every subcommand of the built binary is in it, and `man -l` reads it.
@Suite struct ManPageTests {
    static let page = TestSupport.packageRoot.appendingPathComponent(".build/man/framelab.1").path

    /// Every subcommand name `--experimental-dump-help` lists, nested ones included.
    func subcommandNames() throws -> [String] {
        let r = try TestSupport.framelab(["--experimental-dump-help"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        func names(_ command: [String: Any]) -> [String] {
            let subs = command["subcommands"] as? [[String: Any]] ?? []
            return subs.flatMap { [$0["commandName"] as? String ?? ""] + names($0) }
        }
        return names(try #require(root["command"] as? [String: Any]))
    }

    @Test func thePageHasEverySubcommandAndManReadsIt() throws {
        let text = try #require(try? String(contentsOfFile: Self.page, encoding: .utf8),
                                "no \(Self.page): scripts/build.sh (scripts/man-page.sh) writes it")
        #expect(text.contains(".Dt FRAMELAB 1"))
        let names = try subcommandNames()
        #expect(names.contains("completions") && names.contains("describe"))
        for name in names {
            #expect(text.contains(".It Em \(name)\n"), "the manual page lacks '\(name)': run bash scripts/man-page.sh")
        }
        let man = try TestSupport.run("/usr/bin/man", ["-l", Self.page], environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(man.status == 0 && man.stderr.isEmpty, "man -l: \(man.stderr)")
        #expect(man.stdout.contains("FRAMELAB(1)") && man.stdout.contains("completions"), "\(man.stdout.prefix(400))")
    }
}
