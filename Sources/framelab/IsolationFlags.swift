import ArgumentParser
import FramelabPluginHost

/// `run`'s isolation flags.
struct IsolationFlags: ParsableArguments {
    @Flag(name: .long, help: "Run plugin filters and detectors in a child process sharing frame memory; a crash or hang fails the frame, not the run.")
    var isolate = false

    @Option(name: .customLong("plugin-timeout"),
            help: "With --isolate: milliseconds a plugin may take for one frame before its worker is killed (default: \(IsolationOptions.defaultTimeoutMilliseconds)).")
    var timeout: Int?

    var timeoutMilliseconds: Int { timeout ?? IsolationOptions.defaultTimeoutMilliseconds }

    @Flag(name: .customLong("restart-plugins"), help: "With --isolate: start a new worker after one crashed or hung, and go on.")
    var restart = false

    func validate() throws {
        if let timeout, timeout < 1 { throw usageError("--plugin-timeout must be at least 1 ms, got \(timeout)") }
        if timeout != nil && !isolate { throw usageError("--plugin-timeout needs --isolate") }
        if restart && !isolate { throw usageError("--restart-plugins needs --isolate") }
    }

    var options: IsolationOptions? {
        isolate ? IsolationOptions(timeoutMilliseconds: timeoutMilliseconds, restart: restart) : nil
    }
}
