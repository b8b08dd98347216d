import ArgumentParser
import FramelabCore
import Foundation

/// `framelab completions`: TAB completion for bash, zsh and fish — the scripts
/// swift-argument-parser generates from the commands, whose option values complete
/// through `ShellCompletion` (filter, detector, path, policy, source and dataset names).
struct CompletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print or install TAB completion for bash, zsh or fish.",
        discussion: """
            Completes subcommands, options, and option values: filter and detector names (built-in and the plugins \
            found), --path and --policy values, --source schemes (then files, or camera devices), dataset formats, \
            and .h5 and .so files. `framelab completions install` writes the script where the shell looks for it; \
            `framelab completions script SHELL` prints it (the same as `framelab --generate-completion-script SHELL`). \
            The scripts call framelab by the name typed, so it must be on PATH or typed with its path.
            """,
        subcommands: [CompletionsInstallCommand.self, CompletionsScriptCommand.self])
}

/// The shells swift-argument-parser writes completion scripts for.
enum CompletionShellName: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish

    var shell: CompletionShell {
        switch self {
        case .bash: return .bash
        case .zsh: return .zsh
        case .fish: return .fish
        }
    }

    /// The user's shell, from $SHELL, when it is one of the three.
    static var current: CompletionShellName? {
        ProcessInfo.processInfo.environment["SHELL"].flatMap { CompletionShellName(rawValue: ($0 as NSString).lastPathComponent) }
    }
}

/// `framelab completions script SHELL`: the completion script on standard output.
struct CompletionsScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "script",
        abstract: "Print the completion script for bash, zsh or fish.",
        discussion: "Try it in the current bash without installing: source <(framelab completions script bash)")

    @Argument(help: "bash, zsh or fish.")
    var shell: CompletionShellName

    func run() throws {
        print(Framelab.completionScript(for: shell.shell), terminator: "")
    }
}

/// `framelab completions install`: writes the script where each shell finds it.
struct CompletionsInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write the completion script where the shell loads it from.",
        discussion: """
            Without --prefix, for the current user: bash ${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions/framelab \
            (loaded by the bash-completion package on first use), zsh ${XDG_DATA_HOME:-~/.local/share}/zsh/site-functions/_framelab \
            (add that folder to fpath before compinit in ~/.zshrc), fish ${XDG_CONFIG_HOME:-~/.config}/fish/completions/framelab.fish. \
            With --prefix DIR (e.g. /usr/local): DIR/share/bash-completion/completions/framelab, \
            DIR/share/zsh/site-functions/_framelab, DIR/share/fish/vendor_completions.d/framelab.fish. \
            Prints the file written. --json prints {"shell", "path"}.
            """)

    @Option(name: .long, help: "bash, zsh or fish (default: the shell $SHELL names).")
    var shell: CompletionShellName?

    @Option(name: .long, help: "Install under DIR/share instead of the current user's folders.", completion: .directory)
    var prefix: String?

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        guard let shell = shell ?? CompletionShellName.current else {
            throw usageError("cannot tell the shell from $SHELL ('\(ProcessInfo.processInfo.environment["SHELL"] ?? "")'): "
                             + "give --shell bash, zsh or fish")
        }
        let path = Self.destination(shell, prefix: prefix, environment: ProcessInfo.processInfo.environment)
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Framelab.completionScript(for: shell.shell).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw failure(FramelabError(.io, "cannot write the \(shell.rawValue) completion script to '\(path)': "
                                        + error.localizedDescription))
        }
        if json {
            struct Installed: Encodable { let shell: String, path: String }
            try printJSON(Installed(shell: shell.rawValue, path: path))
            return
        }
        print("wrote \(path)")
        switch shell {
        case .bash: print("new bash shells complete framelab (with the bash-completion package; else add `source \(path)` to ~/.bashrc)")
        case .zsh: print("add `fpath=(\((path as NSString).deletingLastPathComponent) $fpath)` before `compinit` in ~/.zshrc, then start a new zsh")
        case .fish: print("new fish shells complete framelab")
        }
    }

    /// Where the script for `shell` goes.
    static func destination(_ shell: CompletionShellName, prefix: String?, environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let data = prefix.map { $0 + "/share" } ?? environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        switch shell {
        case .bash:
            return data + "/bash-completion/completions/framelab"
        case .zsh:
            return data + "/zsh/site-functions/_framelab"
        case .fish:
            if let prefix { return prefix + "/share/fish/vendor_completions.d/framelab.fish" }
            let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
            return config + "/fish/completions/framelab.fish"
        }
    }
}
