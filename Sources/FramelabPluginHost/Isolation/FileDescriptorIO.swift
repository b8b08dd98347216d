#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// Thin wrappers over read/send/poll on the worker channel (a socket pair); EINTR is
/// retried here and nowhere else.
enum FileDescriptorIO {
    enum ReadResult { case complete, endOfFile }

    /// Reads exactly `count` bytes, or reports end of file (the other side is gone).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws -> ReadResult {
        var done = 0
        while done < count {
            let n = Glibc.read(fd, buffer + done, count - done)
            if n > 0 { done += n; continue }
            if n == 0 { return .endOfFile }
            if errno == EINTR { continue }
            throw FramelabError(.io, "reading from the plugin worker failed: \(String(cString: strerror(errno)))")
        }
        return .complete
    }

    /// Sends all `count` bytes on a channel socket; false when the reader is gone (EPIPE).
    /// MSG_NOSIGNAL turns a dead reader into that EPIPE instead of a SIGPIPE that would kill
    /// the process, without touching the process's signal dispositions.
    static func send(_ fd: Int32, from buffer: UnsafeRawPointer, count: Int) throws -> Bool {
        var done = 0
        while done < count {
            let n = Glibc.send(fd, buffer + done, count - done, Int32(MSG_NOSIGNAL))
            if n >= 0 { done += n; continue }
            if errno == EINTR { continue }
            if errno == EPIPE { return false }
            throw FramelabError(.io, "writing to the plugin worker failed: \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// Waits until `fd` is readable (or closed) for at most `milliseconds`; false on timeout.
    static func waitReadable(_ fd: Int32, milliseconds: Int) throws -> Bool {
        let deadline = MonotonicClock.now() + UInt64(milliseconds) * 1_000_000
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let now = MonotonicClock.now()
            let left = now >= deadline ? 0 : Int32((deadline - now + 999_999) / 1_000_000)
            let n = poll(&p, 1, left)
            if n > 0 { return true }
            if n == 0 { return false }
            if errno == EINTR { continue }
            throw FramelabError(.io, "waiting for the plugin worker failed: \(String(cString: strerror(errno)))")
        }
    }

    /// A connected socket pair whose ends close on exec, created atomically: a worker
    /// spawned by another thread at the same moment cannot inherit either end (and so
    /// cannot keep a dead worker's channel open, which would hide its crash).
    static func makeChannel() throws -> (host: Int32, worker: Int32) {
        var fds: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw FramelabError(.io, "cannot create a channel for the plugin worker: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }
}
