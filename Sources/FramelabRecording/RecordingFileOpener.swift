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
    /// (or is an empty file). Refuses a file that is not HDF5.
    static func open(_ path: String) throws(FramelabError) -> RecordingFileLock {
        func failure(_ reason: String) -> FramelabError {
            FramelabError(.io, "cannot write HDF5 file '\(path)': \(reason)")
        }
        // Twice at most: a file created by someone else between our look and our link
        // sends us round again to open it.
        for _ in 0..<2 {
            var info = stat()
            if stat(path, &info) != 0 {
                guard errno == ENOENT else { throw failure(errnoDescription()) }
                if let lock = try createNew(path, replacingEmpty: false, failure) { return lock }
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory") }
            if info.st_size == 0 {
                // An empty file holds nothing to lose (e.g. made by mktemp): make it a recording.
                if let lock = try createNew(path, replacingEmpty: true, failure) { return lock }
                continue
            }
            let lock: RecordingFileLock
            switch RecordingFileLock.acquire(path) {
            case .success(let l): lock = l
            case .failure(.busy):
                throw failure("another writer (another process, or another RecordingFile in this process) has it open")
            case .failure(.open(let code)): throw failure(errnoDescription(code))
            }
            let isHDF5 = HDF5.locked { isHDF5File(path) }
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
