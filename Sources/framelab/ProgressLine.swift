import FramelabCore
import FramelabRuns
import Foundation

/// Shows progress on standard error: a line redrawn in place on a terminal, a plain
/// line every few seconds otherwise (logs, CI).
final class ProgressLine {
    /// Redraw interval on a terminal.
    static let terminalInterval: UInt64 = 200_000_000
    /// Interval between lines when standard error is not a terminal.
    static let logInterval: UInt64 = 5_000_000_000

    private let total: Int?
    private let enabled: Bool
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw: UInt64 = MonotonicClock.now()
    private var drewSomething = false

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func update(_ tally: RunTally) {
        guard enabled else { return }
        let now = MonotonicClock.now()
        guard now - lastDraw >= (isTerminal ? Self.terminalInterval : Self.logInterval) else { return }
        lastDraw = now
        draw(tally)
    }

    func finish(_ tally: RunTally) {
        guard enabled, drewSomething else { return }
        draw(tally)
        if isTerminal { printToStandardError("") }
    }

    private func draw(_ tally: RunTally) {
        let done = tally.processed + tally.failed
        let count = total.map { "\(done)/\($0)" } ?? "\(done)"
        let text = String(format: "framelab: %@ frames, %.1f fps, %d dropped, %d failed",
                          count, tally.fps, tally.dropped, tally.failed)
        printToStandardError(isTerminal ? "\r\u{1B}[K" + text : text, terminator: "")
        if !isTerminal { printToStandardError("") }
        drewSomething = true
    }
}
