#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHDF5

/// The text of a C errno value, e.g. "No such file or directory".
func errnoDescription(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// Opens a file descriptor (a free function, so types with an `open` member can call it).
func openFileDescriptor(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}

/// Closes a file descriptor (a free function, so classes with a `close()` can call it).
func closeFileDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// An exclusive lock a recording writer holds on its file for as long as it is open,
/// so two writers (two processes, or two `RecordingFile`s in one process) can never
/// append to one file at once. It is an open-file-description lock: released by the
/// kernel when the process dies, even by SIGKILL, and invisible to HDF5 and h5py.
final class RecordingFileLock: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    enum Failure: Error {
        case open(Int32)
        case busy
    }

    /// Opens `path` read-write and takes the lock, without waiting.
    static func acquire(_ path: String) -> Result<RecordingFileLock, Failure> {
        let fd = openFileDescriptor(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.open(errno)) }
        guard fl_lock_file_exclusive(fd) == 0 else {
            let code = errno
            close(fd)
            return code == EAGAIN || code == EACCES ? .failure(.busy) : .failure(.open(code))
        }
        return .success(RecordingFileLock(fd: fd))
    }

    /// Releases the lock (idempotent).
    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}
