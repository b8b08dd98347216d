import Foundation
import FramelabTestSupport
import Testing

/// The manual page scripts/build.sh writes (scripts/man-page.sh, laid out by
/// scripts/man-page.py from `--experimental-dump-help`): every visible subcommand of the
/// built binary is in it, hidden ones are not, non-ASCII text survives, and `man -l` reads it.
@Suite struct ManPageTests {
    static let page = TestSupport.packageRoot.appendingPathComponent(".build/man/framelab.1").path

    /// Every subcommand name `--experimental-dump-help` lists, nested ones included, split
    /// into those `--help` shows and the hidden ones.
    func subcommandNames() throws -> (shown: [String], hidden: [String]) {
        let r = try TestSupport.framelab(["--experimental-dump-help"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        var shown: [String] = [], hidden: [String] = []
        func walk(_ command: [String: Any]) {
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                let name = sub["commandName"] as? String ?? ""
                if sub["shouldDisplay"] as? Bool ?? true { shown.append(name); walk(sub) } else { hidden.append(name) }
            }
        }
        walk(try #require(root["command"] as? [String: Any]))
        return (shown, hidden)
    }

    @Test func thePageHasEverySubcommandAndManReadsIt() throws {
        let text = try #require(try? String(contentsOfFile: Self.page, encoding: .utf8),
                                "no \(Self.page): scripts/build.sh (scripts/man-page.sh) writes it")
        #expect(text.contains(".Dt FRAMELAB 1"))
        let names = try subcommandNames()
        #expect(names.shown.contains("completions") && names.shown.contains("describe"))
        #expect(names.hidden.contains("vet-recording"))
        for name in names.shown {
            #expect(text.contains(".It Em \(name)\n"), "the manual page lacks '\(name)': run bash scripts/man-page.sh")
        }
        for name in names.hidden {
            #expect(!text.contains(".It Em \(name)\n"), "the manual page shows the hidden command '\(name)'")
        }
        let man = try TestSupport.run("/usr/bin/man", ["-l", Self.page], environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LC_ALL": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "man -l: \(man.stderr)")
        #expect(man.stdout.contains("FRAMELAB(1)") && man.stdout.contains("completions"), "\(man.stdout.prefix(400))")
        // compare's help says "B − A" (U+2212) and run's says "image:PATH[?…]": both reach the reader.
        #expect(man.stdout.contains("B \u{2212} A") && man.stdout.contains("image:PATH[?\u{2026}]"),
                "non-ASCII text lost: \(man.stdout.prefix(400))")
    }
}
