#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FramelabCore

/// The host side of discovery: runs `framelab-plugin-worker --discover` on one plugin file
/// and turns what happened into a `PluginFileVerdict` — whatever the file does. A worker
/// that crashes, exits or hangs while loading the file rejects it in words; one that dies
/// in an element's test run fails that element, and a fresh worker tries the rest.
public struct PluginInspector: Sendable {
    /// Milliseconds a worker may take to load the file and describe it (constructors included).
    public static let defaultLoadTimeoutMilliseconds = 10_000

    public var loadTimeoutMilliseconds: Int
    public var trialTimeoutMilliseconds: Int

    public init(loadTimeoutMilliseconds: Int = PluginInspector.defaultLoadTimeoutMilliseconds,
                trialTimeoutMilliseconds: Int = PluginTrial.defaultTimeoutMilliseconds) {
        self.loadTimeoutMilliseconds = loadTimeoutMilliseconds
        self.trialTimeoutMilliseconds = trialTimeoutMilliseconds
    }

    /// Checks the file at `path` (absolute); with `trials`, also test-runs every element
    /// with its defaults on a synthetic frame.
    public func inspect(_ path: String, trials: Bool) -> PluginFileVerdict {
        var verdict: PluginFileVerdict?
        var next = 0  // the next element to test-run
        while true {
            let worker: DiscoveryProcess
            do {
                worker = try DiscoveryProcess(path: path, trialsFrom: trials ? next : nil)
            } catch {
                let reason = (error as? FramelabError)?.message ?? "\(error)"
                if var done = verdict { return done.untried(from: next, path: path, because: reason) }
                return .rejected("\(path): not checked: \(reason); plugins are loaded only after a worker process checked them",
                                 cacheable: false)
            }
            switch worker.next(timeout: loadTimeoutMilliseconds) {
            case .message(let m):
                guard let v = m.verdict else { return .rejected("\(path): the plugin worker answered out of turn", cacheable: false) }
                if verdict == nil { verdict = v }
            case .ended(let how, let printed, let timedOut):
                // A fresh worker for the remaining test runs could not load the file again.
                if var done = verdict { return done.untried(from: next, path: path, because: "the worker \(how) while loading the file again") }
                return .rejected("\(path): the plugin worker \(how) while loading the file (its constructors and \(PluginABI.entrySymbol) run then)"
                                 + DiscoveryProcess.quote(printed), cacheable: !timedOut)
            }
            guard var current = verdict, current.rejection == nil, trials else { return verdict! }
            var workerEnded = false
            while next < current.elements.count && !workerEnded {
                let name = current.elements[next].name
                switch worker.next(timeout: trialTimeoutMilliseconds) {
                case .message(let m):
                    current.trials[name] = m.trialFailure ?? "element '\(name)' (\(path)): the worker sent no outcome"
                case .ended(let how, let printed, _):
                    current.trials[name] = "element '\(name)' (\(path)): the worker \(how) (in the test run on a synthetic \(PluginTrial.width)x\(PluginTrial.height) frame)"
                        + DiscoveryProcess.quote(printed)
                    workerEnded = true
                }
                next += 1
            }
            verdict = current
            if next >= current.elements.count { return current }
        }
    }
}

extension PluginFileVerdict {
    /// Marks the elements from `index` on as not tried, with the reason.
    mutating func untried(from index: Int, path: String, because reason: String) -> PluginFileVerdict {
        for e in elements.dropFirst(index) { trials[e.name] = "element '\(e.name)' (\(path)): not tried: \(reason)" }
        cacheable = false
        return self
    }
}

/// One discovery worker: its process, the channel it answers on, and a memory file that
/// takes its standard error, so what a dying plugin printed can be quoted.
final class DiscoveryProcess {
    enum Outcome {
        case message(DiscoveryMessage)
        /// How the worker ended ("crashed with signal 11 (SIGSEGV)", "timed out after … ms"),
        /// and the last line it wrote to standard error.
        case ended(String, printed: String?, timedOut: Bool)
    }
    enum State { case running, ended }

    /// Longest line a worker may send: a description of many elements fits easily.
    static let maximumLine = 4 << 20

    private let child: ChildProcess
    private let channel: Int32
    private let errors: SharedMemoryFile
    private var buffer: [UInt8] = []
    private(set) var state = State.running

    init(path: String, trialsFrom: Int?) throws {
        let executable = try IsolationEnvironment.workerExecutable()
        let channel = try FileDescriptorIO.makeChannel()
        defer { close(channel.worker) }
        errors = try SharedMemoryFile()
        do {
            child = try ChildProcess(executable: executable,
                                     arguments: ["--discover", path] + (trialsFrom.map { ["--trials-from", "\($0)"] } ?? []),
                                     descriptors: [(0, channel.worker), (1, channel.worker), (2, errors.fd)],
                                     environment: ["SWIFT_BACKTRACE=enable=no"])
        } catch {
            close(channel.host)
            throw error
        }
        self.channel = channel.host
    }

    deinit {
        close(channel)
        child.kill()
    }

    /// The next line the worker sends, or how it ended; waits at most `timeout` ms for it.
    func next(timeout: Int) -> Outcome {
        guard state == .running else { return .ended("had already ended", printed: nil, timedOut: false) }
        let deadline = MonotonicClock.now() + UInt64(timeout) * 1_000_000
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                guard let message = try? JSONDecoder().decode(DiscoveryMessage.self, from: line) else {
                    return end(how: "sent a line that is not a discovery message", timedOut: false)
                }
                return .message(message)
            }
            guard buffer.count <= Self.maximumLine else { return end(how: "sent more than \(Self.maximumLine) bytes in one line", timedOut: false) }
            let now = MonotonicClock.now()
            let left = now >= deadline ? 0 : Int((deadline - now) / 1_000_000)
            let readable = (try? FileDescriptorIO.waitReadable(channel, milliseconds: left)) ?? false
            guard readable else { return end(how: "timed out after \(timeout) ms and was killed", timedOut: true) }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(channel, $0.baseAddress!, $0.count) }
            if n > 0 { buffer += chunk[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            return end(how: child.wait(), timedOut: false)
        }
    }

    private func end(how: String, timedOut: Bool) -> Outcome {
        state = .ended
        child.kill()
        return .ended(how, printed: lastLineWritten(), timedOut: timedOut)
    }

    /// "; it printed: LINE", or nothing.
    static func quote(_ printed: String?) -> String {
        printed.map { "; it printed: \($0)" } ?? ""
    }

    /// The last non-empty line the worker wrote to standard error, shortened.
    private func lastLineWritten() -> String? {
        var s = stat()
        guard fstat(errors.fd, &s) == 0, s.st_size > 0 else { return nil }
        let count = Int(min(s.st_size, 4096))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(errors.fd, $0.baseAddress!, count, off_t(Int(s.st_size) - count)) }
        guard n > 0 else { return nil }
        let text = String(decoding: bytes[0..<n], as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }
}
