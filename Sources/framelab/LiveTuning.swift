#if canImport(Glibc)
import Glibc
#endif
import FramelabCore
import FramelabElements
import FramelabEvaluation
import FramelabPipeline
import Foundation

/// `run --tune FILE`: parameter changes for running elements, read from FILE (a FIFO, or a
/// file being appended to) as lines `ELEMENT key=value [key=value …]`.
///
/// A reader thread parses lines and queues each change for the stages running that element;
/// each stage applies its queue on its own thread before its next frame (`beforeFrame`), so
/// an element never sees a change in the middle of a frame. Plugin elements of ABI 2 take
/// it through set_parameter, others are re-created with the new values (`TunableElement`).
/// Every applied or refused change is one line on standard error, and applied ones are
/// kept for the run's record.
final class LiveTuning: @unchecked Sendable {
    /// One stage that can be tuned, and the changes waiting for its next frame.
    private final class Target {
        let name: String
        let element: any TunableElement
        var pending: [(key: String, value: String)] = []
        init(name: String, element: any TunableElement) {
            self.name = name
            self.element = element
        }
    }

    struct Applied {
        let change: String
        let frame: Int
    }

    private let path: String
    private let targets: [Target]
    private let lock = Lock()
    private var applied: [Applied] = []
    private var stopped = false
    private let fd: Int32

    /// Opens FILE (without waiting for a FIFO's writer) and hooks every tunable stage.
    init(path: String, stages: [any PipelineStage]) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw FramelabError(.badInput, "--tune '\(path)': cannot open: \(String(cString: strerror(errno)))")
        }
        var hooked: [(Target, any PipelineStage)] = []
        for stage in stages {
            if let s = stage as? FilterStage, let element = s.filter as? any TunableElement {
                hooked.append((Target(name: s.filter.name, element: element), s))
            } else if let s = stage as? DetectorStage, let element = s.detector as? any TunableElement {
                hooked.append((Target(name: s.detector.name, element: element), s))
            }
        }
        targets = hooked.map(\.0)
        for (target, stage) in hooked {
            let hook: (Int) -> Void = { index in self.apply(target, frame: index) }
            (stage as? FilterStage)?.beforeFrame = hook
            (stage as? DetectorStage)?.beforeFrame = hook
        }
        let thread = Thread { [self] in readLines() }
        thread.name = "framelab-tune"
        thread.start()
    }

    /// Stops reading; changes already queued are dropped with the run.
    func stop() {
        lock.withLock { stopped = true }
    }

    /// Changes applied since the last call, for the run's record.
    func takeApplied() -> [Applied] {
        lock.withLock {
            defer { applied = [] }
            return applied
        }
    }

    private func readLines() {
        defer { close(fd) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopped }) {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[0..<n]
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    handle(String(decoding: buffer[..<end], as: UTF8.self))
                    buffer.removeSubrange(...end)
                }
                // A line longer than any change is an error in the file, not a change to wait for.
                if buffer.count > 64 << 10 {
                    report("a line of more than 64 KiB without a line break; skipped")
                    buffer = []
                }
            } else if n == 0 || errno == EAGAIN || errno == EINTR {
                usleep(20_000)  // no writer yet, or nothing new: look again shortly
            } else {
                report("reading stopped: \(String(cString: strerror(errno)))")
                return
            }
        }
    }

    private func handle(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first, !name.hasPrefix("#") else { return }
        guard words.count >= 2 else { return report("'\(line)': expected ELEMENT key=value") }
        var changes: [(key: String, value: String)] = []
        for word in words.dropFirst() {
            guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
                return report("'\(line)': '\(word)' is not key=value")
            }
            changes.append((String(word[..<eq]), String(word[word.index(after: eq)...])))
        }
        let matching = targets.filter { $0.name == name }
        guard !matching.isEmpty else {
            let known = targets.map(\.name)
            return report("'\(line)': no running element '\(name)' takes changes"
                          + (known.isEmpty ? " (this run has none: plugin elements do)" : " (these do: \(known.joined(separator: ", ")))"))
        }
        lock.withLock { for t in matching { t.pending += changes } }
    }

    /// On the stage's thread, before frame `index`.
    private func apply(_ target: Target, frame index: Int) {
        let changes: [(key: String, value: String)] = lock.withLock {
            defer { target.pending = [] }
            return target.pending
        }
        for c in changes {
            do {
                try target.element.setParameter(c.key, to: c.value)
                let text = "\(target.name) \(c.key)=\(c.value)"
                lock.withLock { applied.append(Applied(change: text, frame: index)) }
                printToStandardError("framelab: --tune: \(text) from frame \(index)")
            } catch {
                report((error as? FramelabError)?.message ?? "\(error)")
            }
        }
    }

    private func report(_ text: String) {
        printToStandardError("framelab: --tune '\(path)': \(text)")
    }
}
