import Foundation
import FramelabTestSupport
import Testing

/// TAB completion through the real shells: the scripts `framelab completions script`
/// prints, sourced into bash (its completion function called as bash-completion calls it),
/// and into interactive zsh and fish sessions in tmux, where TAB is pressed.
@Suite(.serialized) struct ShellCompletionTests {
    static let binFolder = URL(fileURLWithPath: TestSupport.framelabBinary).deletingLastPathComponent().path

    func script(_ shell: String) throws -> String {
        let r = try TestSupport.framelab(["completions", "script", shell])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    /// The words bash offers after `framelab WORDS… CURRENT<TAB>`.
    func bashCompletions(_ words: [String], environment: [String: String] = [:]) throws -> [String] {
        let dir = try TestSupport.makeTemporaryDirectory()
        let file = dir.appendingPathComponent("framelab.bash")
        try script("bash").write(to: file, atomically: true, encoding: .utf8)
        let quoted = ([TestSupport.framelabBinary] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let r = try TestSupport.run("/bin/bash", ["-c", """
            source '\(file.path)'
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _framelab "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """], environment: environment)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func scriptsForTheThreeShellsCompleteElementNamesThroughFramelab() throws {
        for shell in ["bash", "zsh", "fish"] {
            let text = try script(shell)
            #expect(text.contains("---completion run -- --filter"), "\(shell): no custom completion of --filter")
            #expect(text.contains("---completion eval -- --detector"), "\(shell): no custom completion of --detector")
        }
        #expect(try script("zsh").hasPrefix("#compdef framelab"))
        let bad = try TestSupport.framelab(["completions", "script", "tcsh"])
        #expect(bad.status != 0)
    }

    @Test func bashCompletesFilterDetectorPathPolicySourceAndDatasetNames() throws {
        #expect(try bashCompletions(["run", "--filter", "se"]) == ["sepia"])
        #expect(try bashCompletions(["run", "--filter", ""]).contains("gaussianBlur"))
        #expect(try bashCompletions(["eval", "--detector", "casc"]) == ["cascade"])
        #expect(try bashCompletions(["run", "--path", "re"]) == ["recipe"])
        #expect(Set(try bashCompletions(["run", "--policy", ""])) == ["keep-all", "drop-late"])
        #expect(try bashCompletions(["run", "--source", "syn"]) == ["synthetic:"])
        #expect(try bashCompletions(["dataset", "info", "wi"]) == ["wider:"])
        #expect(try bashCompletions(["filters", "--explain", "--filter", "gaussianB"]) == ["gaussianBlur"])
    }

    @Test func bashCompletesPluginFilterNamesFromThePluginPathOnTheLine() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let plugin = try PluginBuilder.broken("NONE", element: "tabbed", in: dir)
        let env = ["FRAMELAB_CACHE_DIR": dir.appendingPathComponent("cache").path]
        let names = try bashCompletions(["run", "--plugin-path", plugin, "--filter", "tab"], environment: env)
        #expect(names == ["tabbed"], "\(names)")
        // Without the plugin path on the line, the plugin is not found.
        #expect(try bashCompletions(["run", "--filter", "tab"], environment: env).isEmpty)
    }

    /// Types `line` and TAB in an interactive `shell` (in tmux) after `setup`; returns the screen.
    func pressTab(shell: [String], setup: String, line: String, until expected: String) throws -> String {
        let session = "framelab-completion-\(UUID().uuidString.prefix(8))"
        let path = Self.binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // Started from Python, which closes every other descriptor in the child: the tmux server
        // outlives the command, and a pipe it inherited (ours, or another test's) would never
        // reach end-of-file.
        let start = try TestSupport.run("/usr/bin/python3", [
            "-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, "
                + "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode)",
            "/usr/bin/tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "40",
            "/usr/bin/env", "PATH=\(path)", "TERM=xterm"] + shell)
        #expect(start.status == 0, "tmux new-session failed: \(start.stderr)")
        defer { _ = try? TestSupport.run("/usr/bin/tmux", ["kill-session", "-t", session]) }
        Thread.sleep(forTimeInterval: 1)
        try TestSupport.run("/usr/bin/tmux", ["send-keys", "-t", session, setup, "Enter"])
        Thread.sleep(forTimeInterval: 1)
        try TestSupport.run("/usr/bin/tmux", ["send-keys", "-t", session, line, "Tab"])
        var screen = ""
        for _ in 0..<40 {
            Thread.sleep(forTimeInterval: 0.5)
            screen = try TestSupport.run("/usr/bin/tmux", ["capture-pane", "-t", session, "-p"]).stdout
            if screen.contains(expected) { break }
        }
        return screen
    }

    @Test func zshAndFishCompleteAFilterNameOnTab() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let zsh = dir.appendingPathComponent("_framelab"), fish = dir.appendingPathComponent("framelab.fish")
        try script("zsh").write(to: zsh, atomically: true, encoding: .utf8)
        try script("fish").write(to: fish, atomically: true, encoding: .utf8)
        let z = try pressTab(shell: ["zsh", "-f"], setup: "autoload -U compinit; compinit -u; source \(zsh.path)",
                             line: "framelab run --filter sep", until: "--filter sepia")
        #expect(z.contains("framelab run --filter sepia"), "zsh screen:\n\(z)")
        let f = try pressTab(shell: ["fish", "--no-config"], setup: "source \(fish.path)",
                             line: "framelab run --filter sep", until: "--filter sepia")
        #expect(f.contains("framelab run --filter sepia"), "fish screen:\n\(f)")
    }

    @Test func installWritesTheScriptWhereEachShellLooks() throws {
        let home = try TestSupport.makeTemporaryDirectory()
        let env = ["HOME": home.path, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": ""]
        for (shell, path) in [("bash", ".local/share/bash-completion/completions/framelab"),
                              ("zsh", ".local/share/zsh/site-functions/_framelab"),
                              ("fish", ".config/fish/completions/framelab.fish")] {
            let r = try TestSupport.framelab(["completions", "install", "--shell", shell], environment: env)
            #expect(r.status == 0, "\(shell): \(r.stderr)")
            let written = home.appendingPathComponent(path).path
            #expect(r.stdout.contains(written), "\(r.stdout)")
            #expect(try String(contentsOfFile: written, encoding: .utf8) == script(shell))
        }
        // $SHELL picks the shell when --shell is not given; an unknown one is a one-line usage error.
        let bySHELL = try TestSupport.framelab(["completions", "install", "--prefix", home.appendingPathComponent("p").path],
                                               environment: ["SHELL": "/usr/bin/fish"])
        #expect(bySHELL.status == 0 && FileManager.default.fileExists(
            atPath: home.appendingPathComponent("p/share/fish/vendor_completions.d/framelab.fish").path), "\(bySHELL.stderr)")
        let unknown = try TestSupport.framelab(["completions", "install"], environment: ["SHELL": "/bin/tcsh"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--shell"), "\(unknown.stderr)")
    }
}
