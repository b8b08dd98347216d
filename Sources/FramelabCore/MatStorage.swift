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

    /// Allocates `byteCount` bytes, zero-filled.
    init(allocating byteCount: Int) {
        let size = max(byteCount, 1)
        base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MatStorage.alignment)
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
    }

    deinit {
        if owned { base.deallocate() }
        release?()
    }
}
