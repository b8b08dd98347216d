#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Messages that libraries print on standard error by themselves — libpng's "iCCP: known
/// incorrect sRGB profile", libjpeg's "Corrupt JPEG data: 3 extraneous bytes", OpenCV's
/// `[ WARN:0@…]` lines — brought into one place: captured around the call that caused them,
/// prefixed with what was being read, shown once per distinct text, and silenced by
/// `--quiet`.
///
/// Capturing points file descriptor 2 at a private temporary file for the duration of the
/// call. That is a process-wide change, so it happens under a lock that Framelab's own
/// writes to standard error (`writeToStandardError`) also take: they wait for the call
/// (milliseconds for an image decode) and never land in the capture. Text another thread's
/// library or in-process plugin prints during the window is reported with this context;
/// child processes keep their own standard error.
///
/// Off unless a program turns it on (`captureIsEnabled`, the framelab CLI does at start-up):
/// a program that embeds the libraries, or a test runner, keeps its standard error to
/// itself, and its own writes from other threads are never relabelled.
public enum LibraryMessages {
    private static let lock = Lock()
    private nonisolated(unsafe) static var enabled = false
    private nonisolated(unsafe) static var silenced = false
    private nonisolated(unsafe) static var seen: Set<String> = []
    private nonisolated(unsafe) static var captureFile: Int32 = -1

    /// Whether `capturing` captures (a process-wide choice, made by the program at start-up).
    public static var captureIsEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }

    /// When true (a command's `--quiet`), captured library messages are dropped.
    public static var isSilenced: Bool {
        get { lock.withLock { silenced } }
        set { lock.withLock { silenced = newValue } }
    }

    /// Writes Framelab's own text to standard error, never into a capture in progress.
    public static func writeToStandardError(_ text: String) {
        outsideCapture { writeAll(2, Array(text.utf8)) }
    }

    /// Runs `body` while no capture is in progress: for starting a child process, which
    /// would otherwise inherit the capture file as its standard error.
    public static func outsideCapture<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try lock.withLock(body)
    }

    /// Runs `body` (a call into a library that may print), then reports what it printed as
    /// `framelab: warning: CONTEXT: LINE`. Not reentrant: `body` must not capture again.
    public static func capturing<R, E: Error>(_ context: String, _ body: () throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in
            guard enabled, let file = openCaptureFile(), lseek(file, 0, SEEK_SET) == 0, ftruncate(file, 0) == 0 else {
                return try body()  // not enabled, or no temporary file: messages go straight to standard error
            }
            fflush(nil)  // C streams hold nothing back across the switch
            let saved = dup(2)
            guard saved >= 0, dup2(file, 2) >= 0 else {
                if saved >= 0 { close(saved) }
                return try body()
            }
            defer {
                fflush(nil)  // C streams hold nothing back across the switch
                dup2(saved, 2)
                close(saved)
                report(readBack(file), context: context)
            }
            return try body()
        }
    }

    /// One unlinked temporary file, opened once and reused (called with the lock held).
    private static func openCaptureFile() -> Int32? {
        if captureFile >= 0 { return captureFile }
        var template = Array("/tmp/framelab-messages-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // child processes never inherit it
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        captureFile = fd
        return fd
    }

    /// What the call printed, at most 64 KB of it.
    private static func readBack(_ fd: Int32) -> String {
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: min(size, 1 << 16))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self)
    }

    /// Prints each distinct message once (called with the lock held).
    private static func report(_ text: String, context: String) {
        guard !silenced else { return }
        for line in text.split(whereSeparator: \.isNewline) {
            let message = line.trimmingCharacters(in: .whitespaces)
            guard !message.isEmpty, seen.insert(message).inserted else { continue }
            writeAll(2, Array("framelab: warning: \(context): \(message)\n".utf8))
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
