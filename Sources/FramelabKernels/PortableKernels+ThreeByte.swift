/// bgr8 rows through the BGRA kernels (compositing, colour matrices, vibrance, luma, the
/// fused matrix-then-curve loop). Three-byte pixels do not fit 32-bit lanes or split into
/// 16-bit halves by a mask, so a row goes through a stack buffer 64 pixels at a time:
/// widened to four bytes a pixel, run by the BGRA kernel, and narrowed back. The widening
/// and narrowing are the level's: byte shuffles eight pixels a step at avx2 and avx512
/// (`AVX2ThreeByte.swift`; the colour kernels reach them through `KernelTable`, the
/// compositing kernels, which run inside the level modules, as the `widen` and `narrow`
/// arguments); what those leave, and everything at the portable level, goes by the loops
/// here: one unaligned 4-byte load per pixel (its fourth byte dropped) and one overlapping
/// 4-byte store per pixel, about three micro-ops a pixel each way, where the plain per-byte
/// loop over a run-time channel count took about 7 cycles a pixel.
extension PortableKernels {
    /// Pixels a buffer holds; 64 BGRA pixels are 256 bytes, three buffers stay in L1.
    @inlinable static var threeByteChunk: Int { 64 }

    /// The pixels of a bgr8 row of `width` the widening may cover: every 4-byte load at
    /// 3·x must end inside the row's 3·width bytes, so the last pixel is left to the caller,
    /// and a multiple of 8 so the BGRA kernels do every pixel they are given.
    @inlinable @inline(__always)
    public static func threeBytePixelsCovered(_ width: Int) -> Int {
        width < 1 ? 0 : (width &- 1) & ~7
    }

    /// `count` bgr8 pixels at `src` as BGRA at `dst`, with `alpha` (in bits 24…31) as their
    /// alpha: 0 for the compositing kernels, which ignore it, 255 for an opaque pixel.
    @inlinable @inline(__always)
    static func widenThreeByte(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                               alpha: UInt32 = 0) {
        for x in 0..<count {
            dst[x] = UnsafeRawPointer(src + 3 &* x).loadUnaligned(as: UInt32.self) & 0x00FF_FFFF | alpha
        }
    }

    /// `widenThreeByte` reading nothing past pixel `count` (the last pixel byte by byte), as
    /// `KernelTable.widenThreeByte` promises; returns `count`.
    @inlinable @inline(__always)
    public static func widenThreeByteExactly(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                                             _ alpha: UInt32) -> Int {
        guard count > 0 else { return 0 }
        widenThreeByte(src, dst, count &- 1, alpha: alpha)
        let p = src + 3 &* (count &- 1)
        dst[count &- 1] = UInt32(p[0]) | UInt32(p[1]) &<< 8 | UInt32(p[2]) &<< 16 | alpha
        return count
    }

    /// A level's widening (`KernelTable.widenThreeByte` or the level module's own function):
    /// it does what it can of `count` pixels, the rest go by `widenThreeByte`'s 4-byte loads,
    /// so the caller must leave one spare pixel after them (`threeBytePixelsCovered`).
    public typealias ThreeByteWidening = (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>,
                                          _ count: Int, _ alpha: UInt32) -> Int
    /// A level's narrowing: does what it can of `count` pixels without storing past them,
    /// the rest go by `narrowToThreeByte`.
    public typealias ThreeByteNarrowing = (_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt8>,
                                           _ count: Int) -> Int

    /// No vector widening or narrowing: everything by the scalar loops (the portable level's
    /// compositing, and the default of the compositing entry points).
    @inlinable @inline(__always)
    public static func scalarWidening(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>,
                                      _ count: Int, _ alpha: UInt32) -> Int { 0 }
    @inlinable @inline(__always)
    public static func scalarNarrowing(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt8>,
                                       _ count: Int) -> Int { 0 }

    /// `count` bgr8 pixels widened by `vector`, then by `widenThreeByte` from where it stopped.
    @inlinable @inline(__always)
    static func widen(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                      alpha: UInt32, by vector: ThreeByteWidening) {
        let done = vector(src, dst, count, alpha)
        widenThreeByte(src + 3 &* done, dst + done, count &- done, alpha: alpha)
    }

    /// `count` BGRA pixels narrowed by `vector`, then by `narrowToThreeByte` from where it stopped.
    @inlinable @inline(__always)
    static func narrow(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int,
                       by vector: ThreeByteNarrowing) {
        let done = vector(src, dst, count)
        narrowToThreeByte(src + done, dst + 3 &* done, count &- done)
    }

    /// A bgr8 row's pixels as opaque BGRA (alpha 255, what a bgr8 pixel means to a matrix
    /// with an alpha column), 64 at a time, widened by the level's `widenThreeByte`:
    /// `body(chunk, x, n)` gets pixels x..<x+n in `chunk` (which it may overwrite) and
    /// returns how many it did. Returns the pixels done: `threeBytePixelsCovered(width)`, or
    /// fewer where `body` stopped short; the caller does the rest.
    @inlinable @inline(__always)
    public static func forEachOpaqueChunk(_ src: UnsafePointer<UInt8>, _ width: Int, _ kernels: KernelTable,
                                          _ body: (_ chunk: UnsafeMutableRawPointer, _ x: Int, _ n: Int) -> Int) -> Int {
        let covered = threeBytePixelsCovered(width)
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: threeByteChunk) { buffer in
            let chunk = buffer.baseAddress!
            var x = 0
            while x < covered {
                let n = Swift.min(threeByteChunk, covered &- x)
                let opaque: UInt32 = 0xFF00_0000
                widen(src + 3 &* x, chunk, n, alpha: opaque, by: kernels.widenThreeByte)
                let done = body(UnsafeMutableRawPointer(chunk), x, n)
                x &+= done
                if done < n { break }
            }
            return x
        }
    }

    /// A bgr8 row, `src` to `dst` (the same row is fine), through a BGRA row kernel that
    /// keeps the pixel layout (`kernel(src, dst, n)` returns how many it did), by way of
    /// `forEachOpaqueChunk` and the level's `narrowThreeByte`; returns the pixels done.
    @inlinable @inline(__always)
    public static func throughBGRA(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int,
                                   _ kernels: KernelTable,
                                   _ kernel: (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Int) -> Int {
        forEachOpaqueChunk(src, width, kernels) { chunk, x, n in
            let done = kernel(UnsafeRawPointer(chunk), chunk, n)
            let pixels = chunk.assumingMemoryBound(to: UInt32.self), out = dst + 3 &* x
            narrow(pixels, out, done, by: kernels.narrowThreeByte)
            return done
        }
    }

    /// `count` BGRA pixels at `src` as bgr8 at `dst` by the level's `narrowThreeByte`, the
    /// rest by `narrowToThreeByte`: all of them, nothing written past the last (rows that
    /// are made as BGRA, such as a gradient's, and stored as bgr8).
    @inlinable @inline(__always)
    public static func narrowToThreeByte(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int,
                                         _ kernels: KernelTable) {
        narrow(src, dst, count, by: kernels.narrowThreeByte)
    }

    /// `count` BGRA pixels at `src` as bgr8 at `dst`. Each 4-byte store writes the next
    /// pixel's first byte, which that pixel's store then overwrites; the last pixel is
    /// stored as three bytes, so nothing past `count` pixels is written (an in-place row's
    /// next input bytes are not yet read).
    @inlinable @inline(__always)
    static func narrowToThreeByte(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int) {
        guard count > 0 else { return }
        for x in 0..<(count &- 1) {
            UnsafeMutableRawPointer(dst + 3 &* x).storeBytes(of: src[x], as: UInt32.self)
        }
        let last = src[count &- 1], at = dst + 3 &* (count &- 1)
        at[0] = UInt8(truncatingIfNeeded: last)
        at[1] = UInt8(truncatingIfNeeded: last &>> 8)
        at[2] = UInt8(truncatingIfNeeded: last &>> 16)
    }

    /// Source-over of a bgr8 bottom under a BGRA top by `sourceOverBGRA`; returns the
    /// pixels done (`threeBytePixelsCovered(width)`).
    @inlinable @inline(__always)
    public static func sourceOverThreeByte(_ t: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                           _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                           widen vectorWiden: ThreeByteWidening,
                                           narrow vectorNarrow: ThreeByteNarrowing) -> Int {
        let covered = threeBytePixelsCovered(width)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 &* threeByteChunk) { buffer in
            let bottom = buffer.baseAddress!, out = bottom + threeByteChunk
            var x = 0
            while x < covered {
                let n = Swift.min(threeByteChunk, covered &- x)
                widen(b + 3 &* x, bottom, n, alpha: 0, by: vectorWiden)
                _ = sourceOverBGRA(t + 4 &* x, UnsafeRawPointer(bottom).assumingMemoryBound(to: UInt8.self),
                                   UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self), n)
                narrow(out, d + 3 &* x, n, by: vectorNarrow)
                x &+= n
            }
        }
        return covered
    }

    /// Blend-with-mask of bgr8 rows by `blendBGRA`; returns the pixels done
    /// (`threeBytePixelsCovered(width)`).
    @inlinable @inline(__always)
    static func blendThreeByte(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ m: UnsafePointer<UInt8>,
                               _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                               widen vectorWiden: ThreeByteWidening, narrow vectorNarrow: ThreeByteNarrowing) -> Int {
        let covered = threeBytePixelsCovered(width)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 &* threeByteChunk) { buffer in
            let front = buffer.baseAddress!, back = front + threeByteChunk, out = back + threeByteChunk
            var x = 0
            while x < covered {
                let n = Swift.min(threeByteChunk, covered &- x)
                widen(f + 3 &* x, front, n, alpha: 0, by: vectorWiden)
                widen(b + 3 &* x, back, n, alpha: 0, by: vectorWiden)
                _ = blendBGRA(UnsafeRawPointer(front).assumingMemoryBound(to: UInt8.self),
                              UnsafeRawPointer(back).assumingMemoryBound(to: UInt8.self), m + x,
                              UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self), n)
                narrow(out, d + 3 &* x, n, by: vectorNarrow)
                x &+= n
            }
        }
        return covered
    }
}
