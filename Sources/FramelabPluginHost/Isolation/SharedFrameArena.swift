#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// A shared-memory arena for frame pixels: installed as the `PixelAllocator` for a run with
/// `--isolate`, so frames made by sources and filters already live in memory every plugin
/// worker maps (as its fd 4), and cross to a worker as an offset, without a copy.
///
/// Blocks come in power-of-two size classes from `minimumBlock` up and are reused through
/// per-class free lists; the arena reserves `capacity` bytes of address space, and tmpfs
/// gives pages only when they are first touched. Small or over-large requests return nil,
/// and the heap serves them.
public final class SharedFrameArena: PixelAllocator, @unchecked Sendable {
    /// Address space reserved: room for hundreds of 1080p frames; costs nothing untouched.
    public static let defaultCapacity = 4 << 30
    /// Smaller images (thumbnails, trial frames) stay on the heap.
    public static let minimumBlock = 64 << 10

    let file: SharedMemoryFile
    let mapping: SharedMapping
    private let lock = Lock()
    private var next = 0
    private var free: [Int: [Int]] = [:]  // block size → offsets

    public init(capacity: Int = SharedFrameArena.defaultCapacity) throws {
        file = try SharedMemoryFile()
        try file.grow(to: capacity)
        mapping = try SharedMapping(fd: file.fd, size: capacity)
    }

    public func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        guard byteCount >= Self.minimumBlock / 2 else { return nil }
        var block = Self.minimumBlock
        while block < byteCount { block <<= 1 }
        return lock.withLock { () -> UnsafeMutableRawPointer? in
            if let offset = free[block]?.popLast() { return mapping.base + offset }
            guard next + block <= mapping.size else { return nil }
            let offset = next
            next += block
            return mapping.base + offset
        }
    }

    public func deallocate(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        var block = Self.minimumBlock
        while block < byteCount { block <<= 1 }
        lock.withLock { free[block, default: []].append(pointer - mapping.base) }
    }

    /// The offset of `image`'s pixels in the arena, or nil when they lie elsewhere.
    func offset(of image: Mat) -> Int? {
        image.withUnsafeBytes { bytes -> Int? in
            guard let start = bytes.baseAddress, mapping.contains(start, count: bytes.count) else { return nil }
            return start - UnsafeRawPointer(mapping.base)
        }
    }

    /// Allocates an image in the arena whether or not the arena is installed (tests, benchmarks),
    /// with `spare` bytes after its last row that belong to it (room for an `OutputCanary`).
    public func makeImage(format: PixelFormat, width: Int, height: Int, spare: Int = 0) -> Mat? {
        let stride = (width * format.bytesPerPixel + 63) / 64 * 64
        let byteCount = stride * height + spare
        guard let p = allocate(byteCount: byteCount) else { return nil }
        p.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        let offset = p - mapping.base
        return Mat(borrowing: p, format: format, width: width, height: height, stride: stride, owner: self) { [self] in
            deallocate(mapping.base + offset, byteCount: byteCount)
        }
    }
}
