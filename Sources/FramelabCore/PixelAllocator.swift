/// Where the pixels of newly allocated `Mat`s come from.
///
/// By default the process heap. A host that runs plugins in worker processes installs a
/// shared-memory arena instead, so every frame a source or filter makes already lives in
/// memory the workers map, and is handed to them without a copy.
public protocol PixelAllocator: AnyObject, Sendable {
    /// At least `byteCount` bytes, 64-byte aligned, or nil to fall back to the heap.
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer?
    /// Returns memory `allocate` gave out.
    func deallocate(_ pointer: UnsafeMutableRawPointer, byteCount: Int)
}

/// The installed `PixelAllocator` (nil: the heap). Install before frames are made;
/// memory keeps returning to the allocator that gave it out.
public enum PixelAllocation {
    private static let lock = AllocatorLock()

    public static func install(_ allocator: (any PixelAllocator)?) {
        lock.set(allocator)
    }

    public static var current: (any PixelAllocator)? { lock.get() }
}

/// A lock around the installed allocator (read on every owned `Mat` allocation).
private final class AllocatorLock: @unchecked Sendable {
    private let lock = Lock()
    private var allocator: (any PixelAllocator)?

    func set(_ value: (any PixelAllocator)?) { lock.withLock { allocator = value } }
    func get() -> (any PixelAllocator)? { lock.withLock { allocator } }
}
