#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHDF5
import FramelabCore

/// Finds or makes the file a `RecordingFile` writes, and takes the writer's lock on it.
enum RecordingFileOpener {
    /// Returns the lock on `path`, creating an empty recording there if it is missing
    /// (or is an empty file). Refuses a file that is not HDF5, and anything that is not a
    /// regular file (a device, FIFO, socket or directory), leaving it as it is. A symbolic
    /// link is followed: the recording is its target (a dangling link is refused).
    static func open(_ path: String) throws(FramelabError) -> RecordingFileLock {
        func failure(_ reason: String) -> FramelabError {
            FramelabError(.io, "cannot write HDF5 file '\(path)': \(reason)")
        }
        // Replacing the link itself by a new file would cut it: work on what it points to.
        let target = try linkTarget(path, failure)
        // Twice at most: a file created by someone else between our look and our link
        // sends us round again to open it.
        for _ in 0..<2 {
            var info = stat()
            if stat(target, &info) != 0 {
                guard errno == ENOENT else { throw failure(errnoDescription()) }
                if let lock = try createNew(target, replacingEmpty: false, failure) { return lock }
                continue
            }
            if let kind = nonRegularKind(info.st_mode) {
                throw failure("it is \(kind), not a regular file (it is left untouched)")
            }
            if info.st_size == 0 {
                // An empty file holds nothing to lose (e.g. made by mktemp): make it a recording.
                if let lock = try createNew(target, replacingEmpty: true, failure) { return lock }
                continue
            }
            let lock: RecordingFileLock
            switch RecordingFileLock.acquire(target) {
            case .success(let l): lock = l
            case .failure(.busy):
                throw failure("another writer (another process, or another RecordingFile in this process) has it open")
            case .failure(.open(let code)): throw failure(errnoDescription(code))
            }
            let isHDF5 = HDF5.locked { isHDF5File(target) }
            switch isHDF5 {
            case .yes: return lock
            case .no:
                lock.release()
                throw failure("it is not an HDF5 file (it is left untouched)")
            case .error(let message):
                lock.release()
                throw failure(message)
            }
        }
        throw failure("it keeps appearing and disappearing")
    }

    /// Builds a new recording under a temporary name next to `path` and moves it into
    /// place, so a reader (or a crash) never sees a half-made file. Returns nil when
    /// `path` appeared meanwhile (the caller opens it instead).
    private static func createNew(_ path: String, replacingEmpty: Bool,
                                  _ failure: (String) -> FramelabError) throws(FramelabError) -> RecordingFileLock? {
        let temporary = temporaryName(for: path)
        // Our own open() first: its errno makes a clearer message than HDF5's.
        let fd = openFileDescriptor(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(errnoDescription()) }
        closeFileDescriptor(fd)
        var placed = false
        defer { if !placed { unlink(temporary) } }

        do throws(HDF5Error) {
            try HDF5.locked { () throws(HDF5Error) in
                let file = try H5File.create(temporary)
                try RunLayout.createRoot(file.id)
                try HDF5.check(file.close(), "cannot close the new file")
            }
        } catch {
            throw failure(error.description)
        }
        let lock: RecordingFileLock
        switch RecordingFileLock.acquire(temporary) {
        case .success(let l): lock = l
        case .failure(.busy): throw failure("cannot lock the new file")
        case .failure(.open(let code)): throw failure(errnoDescription(code))
        }
        if replacingEmpty {
            guard rename(temporary, path) == 0 else { lock.release(); throw failure(errnoDescription()) }
            placed = true
            return lock
        }
        // link() fails if `path` exists, so a file made meanwhile is never overwritten.
        if link(temporary, path) == 0 {
            unlink(temporary)
            placed = true
            return lock
        }
        let code = errno
        if code == EEXIST {
            lock.release()
            return nil
        }
        // Filesystems without hard links: rename (which would replace a file made in
        // the instant since we looked).
        guard rename(temporary, path) == 0 else { lock.release(); throw failure(errnoDescription()) }
        placed = true
        return lock
    }

    /// `path`, or where it points when it is a symbolic link.
    private static func linkTarget(_ path: String, _ failure: (String) -> FramelabError) throws(FramelabError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw failure(errno == ENOENT ? "it is a symbolic link to a missing file" : errnoDescription())
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What a file that is not a regular file is, in words (nil for a regular file).
    private static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    private static func temporaryName(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(directory).\(name).framelab-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }
}

enum HDF5Check {
    case yes, no, error(String)
}

/// Whether `path` is an HDF5 file. Lock held.
func isHDF5File(_ path: String) -> HDF5Check {
    switch fl_h5_is_hdf5(path) {
    case 1: return .yes
    case 0: return .no
    default: return .error(HDF5.takeErrorMessage())
    }
}
