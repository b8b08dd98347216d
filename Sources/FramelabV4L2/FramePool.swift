import FramelabCore

#if canImport(Glibc)
import Glibc
#endif

/// Pixel buffers for a camera's output frames, recycled: a frame's buffer returns to the
/// pool when the last `Mat` using it is gone (wherever in the pipeline that happens), so
/// steady-state capture allocates no pixel memory.
final class FramePool: @unchecked Sendable {
    let width: Int
    let height: Int
    let format: PixelFormat
    private var free: [UnsafeMutableRawPointer] = []
    private var allocated = 0
    private let lock = Lock()
    private var closed = false

    /// Row bytes rounded up to 64 so rows start aligned for SIMD filters.
    var stride: Int { (width * format.bytesPerPixel + 63) / 64 * 64 }

    init(format: PixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    deinit {
        for p in free { p.deallocate() }
    }

    /// How many buffers exist (in use or free): flat in steady state.
    var bufferCount: Int { locked { allocated } }

    /// A frame whose pixels are uninitialised; write every pixel before handing it on.
    func takeUninitialised() -> Mat {
        let byteCount = stride * height
        let memory = locked { () -> UnsafeMutableRawPointer in
            if let p = free.popLast() { return p }
            allocated += 1
            return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        }
        // The address crosses into the @Sendable release closure as an integer.
        let address = UInt(bitPattern: memory)
        return Mat(borrowing: memory, format: format, width: width, height: height, stride: stride,
                   owner: nil, release: { [self] in giveBack(address) })
    }

    private func giveBack(_ address: UInt) {
        locked { free.append(UnsafeMutableRawPointer(bitPattern: address)!) }
    }

    private func locked<R>(_ body: () -> R) -> R { lock.withLock(body) }
}
