#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// An anonymous shared-memory file (shm_open, then unlinked at once so nothing is left
/// behind if the host dies), passed to the worker by descriptor.
final class SharedMemoryFile: @unchecked Sendable {
    let fd: Int32
    private(set) var size = 0
    init() throws {
        // A random suffix keeps names of concurrent files in one process apart.
        let name = "/framelab-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw FramelabError(.io, "cannot create shared memory \(name): \(String(cString: strerror(errno)))")
        }
        shm_unlink(name)
        self.fd = fd
    }

    /// Grows the file to `newSize` bytes (never shrinks: mappings of the old size stay valid).
    func grow(to newSize: Int) throws {
        guard newSize > size else { return }
        guard ftruncate(fd, off_t(newSize)) == 0 else {
            throw FramelabError(.io, "cannot size shared memory to \(newSize) bytes: \(String(cString: strerror(errno)))")
        }
        size = newSize
    }

    deinit { close(fd) }
}

/// One mapping of a shared-memory descriptor; unmapped when the last image over it is gone.
final class SharedMapping: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let size: Int

    init(fd: Int32, size: Int) throws {
        let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else {
            throw FramelabError(.io, "cannot map \(size) bytes of shared memory: \(String(cString: strerror(errno)))")
        }
        base = p
        self.size = size
    }

    /// True when `pointer` lies inside this mapping.
    func contains(_ pointer: UnsafeRawPointer, count: Int) -> Bool {
        let start = UnsafeRawPointer(base)
        return pointer >= start && pointer + count <= start + size
    }

    /// A `Mat` over bytes of this mapping, keeping the mapping alive.
    func image(offset: Int, format: PixelFormat, width: Int, height: Int, stride: Int) -> Mat {
        Mat(borrowing: base + offset, format: format, width: width, height: height, stride: stride, owner: self)
    }

    deinit { munmap(base, size) }
}
