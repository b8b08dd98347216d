import FramelabCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An installed PixelAllocator serves owned Mat pixels and gets them back.
@Suite struct PixelAllocatorTests {
    /// Heap-backed, but records what it gave out and got back.
    final class Recording: PixelAllocator, @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var given: Set<UnsafeMutableRawPointer> = []
        private(set) var returned: Set<UnsafeMutableRawPointer> = []
        /// Allocations made on the thread that created it. The allocator is process-wide and
        /// other suites run in parallel: a Mat another test's thread creates while it is
        /// installed (or one that thread began just before `install(nil)`) comes here too,
        /// and would make the count say the uninstalled allocator was still in use.
        private var allocations = 0
        private let owner = pthread_self()
        var count: Int { pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }; return allocations }
        init() { pthread_mutex_init(&mutex, nil) }
        func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
            let p = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            p.initializeMemory(as: UInt8.self, repeating: 0xAB, count: byteCount)
            let mine = pthread_equal(pthread_self(), owner) != 0
            pthread_mutex_lock(&mutex); given.insert(p); if mine { allocations += 1 }; pthread_mutex_unlock(&mutex)
            return p
        }
        func deallocate(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
            pthread_mutex_lock(&mutex); returned.insert(pointer); pthread_mutex_unlock(&mutex)
            pointer.deallocate()
        }
        func gave(_ p: UnsafeRawPointer) -> Bool {
            pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }
            return given.contains(UnsafeMutableRawPointer(mutating: p))
        }
        func gotBack(_ p: UnsafeRawPointer) -> Bool {
            pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }
            return returned.contains(UnsafeMutableRawPointer(mutating: p))
        }
    }

    @Test func installedAllocatorServesAndReceivesMatMemory() {
        let allocator = Recording()
        PixelAllocation.install(allocator)
        var image: Mat? = Mat(format: .bgra8, width: 64, height: 8)
        PixelAllocation.install(nil)
        let base = image!.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
        #expect(allocator.gave(base))
        #expect(image!.pixel(x: 3, y: 2) == [0, 0, 0, 0], "memory from an allocator is still zero-filled")
        image = nil
        #expect(allocator.gotBack(base))
        let count = allocator.count
        _ = Mat(format: .gray8, width: 8, height: 8)
        #expect(allocator.count == count, "uninstalled: the heap again")
    }
}
