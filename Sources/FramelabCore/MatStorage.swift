/// The memory behind one or more `Mat` headers.
///
/// Either owned (allocated here, freed on deinit) or borrowed (someone else's
/// memory, kept alive by `owner` and released by `release` on deinit). Pixels are
/// shared by every `Mat` that refers to the storage, as with `cv::Mat`.
final class MatStorage: @unchecked Sendable {
    /// Alignment of owned allocations: a cache line, which also suits every SIMD width.
    static let alignment = 64

    let base: UnsafeMutableRawPointer
    let byteCount: Int
    private let owner: AnyObject?
    private let release: (@Sendable () -> Void)?
    private let owned: Bool

    /// The allocator owned memory came from (nil: the heap).
    private let allocator: (any PixelAllocator)?

    /// Allocates `byteCount` bytes, zero-filled, from the installed `PixelAllocator` or the heap.
    init(allocating byteCount: Int) {
        let size = max(byteCount, 1)
        let installed = PixelAllocation.current
        if let installed, let p = installed.allocate(byteCount: size) {
            base = p
            allocator = installed
        } else {
            base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MatStorage.alignment)
            allocator = nil
        }
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        self.byteCount = byteCount
        owner = nil
        release = nil
        owned = true
    }

    /// Wraps memory the caller keeps valid until `release` runs (or while `owner` lives).
    init(borrowing base: UnsafeMutableRawPointer, byteCount: Int, owner: AnyObject?,
         release: (@Sendable () -> Void)?) {
        self.base = base
        self.byteCount = byteCount
        self.owner = owner
        self.release = release
        owned = false
        allocator = nil
    }

    deinit {
        if owned {
            if let allocator { allocator.deallocate(base, byteCount: max(byteCount, 1)) } else { base.deallocate() }
        }
        release?()
    }
}
