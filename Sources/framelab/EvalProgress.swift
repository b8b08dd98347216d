import FramelabCore
import Foundation

/// Progress of a job over a known number of images on standard error (`eval`, `dataset
/// show`): images done out of the total, redrawn in place on a terminal, a plain line every
/// few seconds otherwise. Called on the thread that does the work.
final class EvalProgress {
    private let enabled: Bool
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let started = MonotonicClock.now()
    private var lastDraw: UInt64 = 0
    private var drew = false

    private let job: String

    init(enabled: Bool, job: String = "eval") {
        self.enabled = enabled
        self.job = job
    }

    func update(done: Int, total: Int) {
        guard enabled else { return }
        let now = MonotonicClock.now()
        let interval = isTerminal ? ProgressLine.terminalInterval : ProgressLine.logInterval
        guard now - lastDraw >= interval || (done == total && drew) else { return }
        lastDraw = now
        let seconds = Double(now - started) / 1e9
        let text = String(format: "framelab: %@ %d/%d images, %.1f images/s", job, done, total,
                          seconds > 0 ? Double(done) / seconds : 0)
        printToStandardError(isTerminal ? "\r\u{1B}[K" + text : text, terminator: isTerminal ? "" : "\n")
        drew = true
    }

    func finish() {
        if enabled && drew && isTerminal { printToStandardError("") }
    }
}
