/// Eight BGRA pixels as 16-bit lanes: each 32-bit pixel splits into its (B, R) and (G, A)
/// bytes, one byte in the low half of each 16-bit lane. A product of two bytes plus a
/// rounding term fits 16 bits, so the compositing kernels (source-over, blend-with-mask)
/// multiply a whole pixel's channels by one per-pixel weight in one vector multiply, twice
/// per eight pixels, where one sample per 32-bit lane took four.
extension PortableKernels {
    public typealias EightPixels = SIMD8<UInt32>
    public typealias ByteHalves = SIMD16<UInt16>

    /// Runs `body` on the (B, R) halves of `a` and `b`, then on their (G, A) halves, and
    /// joins the two results (each a byte per 16-bit lane) back into eight pixels.
    @inlinable @inline(__always)
    public static func eachHalf(_ a: EightPixels, _ b: EightPixels,
                                _ body: (ByteHalves, ByteHalves) -> ByteHalves) -> EightPixels {
        let bytePairs = EightPixels(repeating: 0x00FF_00FF)
        @inline(__always) func halves(_ v: EightPixels) -> ByteHalves { unsafeBitCast(v, to: ByteHalves.self) }
        let br = body(halves(a & bytePairs), halves(b & bytePairs))
        let ga = body(halves((a &>> 8) & bytePairs), halves((b &>> 8) & bytePairs))
        return unsafeBitCast(br, to: EightPixels.self) | (unsafeBitCast(ga, to: EightPixels.self) &<< 8)
    }

    /// A per-pixel byte (0...255 in each 32-bit lane) in both 16-bit halves of its pixel,
    /// so it weighs the (B, R) and the (G, A) halves alike.
    @inlinable @inline(__always)
    public static func spreadToHalves(_ perPixel: EightPixels) -> ByteHalves {
        unsafeBitCast(perPixel | (perPixel &<< 16), to: ByteHalves.self)
    }

    /// v / 255 rounded, for v = product + 128 ≤ 255·255 + 128: (v + (v >> 8)) >> 8 is exact
    /// there and stays within 16 bits (at most 65407 before the last shift).
    @inlinable @inline(__always)
    public static func divideBy255(_ roundedProduct: ByteHalves) -> ByteHalves {
        (roundedProduct &+ (roundedProduct &>> 8)) &>> 8
    }
}
