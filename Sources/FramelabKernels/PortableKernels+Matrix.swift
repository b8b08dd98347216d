/// The portable colour-matrix loops: eight BGRA pixels per step as `SIMD8<Float>` with
/// fused multiply-adds, rounded with the 2^23 trick and clamped with integer min/max.
///
/// For x > −2^23, the bits of `x + 2^23` as Int32 grow with x and equal 0x4B000000 +
/// round(x) on 0…255, so two integer min/max clamp, and the low byte is the result (the
/// 0x4B of the high byte shifts out when the channel moves to its place). Clamps the matrix
/// cannot need (a sepia matrix never goes below 0; the identity never leaves 0…255) are
/// left out by specialised loops (`ClampNeed`).
///
/// Everything here is `@inlinable` and inlined by force: each level module compiles these
/// bodies for its own instruction set, and no out-of-line specialisation (whose symbol
/// would be shared by every module that made it) is left for the linker to pick.
public enum PortableKernels {
    public typealias F = SIMD8<Float>
    public typealias I = SIMD8<Int32>

    /// The 3x3 on B, G, R plus bias, alpha copied: on x86-64 in 16-bit fixed point where the
    /// matrix fits (`fixedPointMatrix3`: SSE2 lacks the float loop's Int32 min/max and FMA),
    /// else the float loop.
    @inlinable @inline(__always)
    public static func matrix3(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed) -> Int {
        #if arch(x86_64)
        if let fixed { return fixedPointMatrix3(src, dst, width, fixed) }
        #endif
        return floatMatrix3(src, dst, width, k, clamp)
    }

    /// The float loop, specialised for the clamps the matrix needs (public for the tests,
    /// which run every specialisation on x86-64 too).
    @inlinable @inline(__always)
    public static func floatMatrix3(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                    _ k: UnsafePointer<Float>, _ clamp: ClampNeed) -> Int {
        switch clamp {
        case .both: return row3(src, dst, width, k, BothClamps.self)
        case .high: return row3(src, dst, width, k, HighClamp.self)
        case .low: return row3(src, dst, width, k, LowClamp.self)
        case .none: return row3(src, dst, width, k, NoClamp.self)
        }
    }

    /// The 3x3 on B, G, R plus bias; alpha copied.
    @inlinable @inline(__always)
    static func row3<C: ClampMode>(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ mode: C.Type) -> Int {
        // Splats once per row: the loop body is pure vector arithmetic.
        let rr = F(repeating: k[0]), rg = F(repeating: k[1]), rb = F(repeating: k[2]), r0 = F(repeating: k[4])
        let gr = F(repeating: k[5]), gg = F(repeating: k[6]), gb = F(repeating: k[7]), g0 = F(repeating: k[9])
        let br = F(repeating: k[10]), bg = F(repeating: k[11]), bb = F(repeating: k[12]), b0 = F(repeating: k[14])
        let mask = I(repeating: 0xFF), alpha = I(repeating: -16_777_216)
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let b = float(v & mask), g = float((v &>> 8) & mask), r = float((v &>> 16) & mask)
            let nr = roundClamp(madd(madd(madd(r0, r, rr), g, rg), b, rb), C.self)
            let ng = roundClamp(madd(madd(madd(g0, r, gr), g, gg), b, gb), C.self)
            let nb = roundClamp(madd(madd(madd(b0, r, br), g, bg), b, bb), C.self)
            (dst + 4 &* x).storeBytes(of: (nb & mask) | (ng &<< 8) | (nr &<< 16) | (v & alpha), as: I.self)
            x &+= 8
        }
        return x
    }

    /// Full 4x4 including alpha (always clamped: alpha rows are rare and arbitrary).
    @inlinable @inline(__always)
    public static func matrix4(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>) -> Int {
        let mask = I(repeating: 0xFF)
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let b = float(v & mask), g = float((v &>> 8) & mask), r = float((v &>> 16) & mask), a = float((v &>> 24) & mask)
            @inline(__always) func row(_ i: Int) -> I {
                let o = 5 &* i
                var v = madd(F(repeating: k[o + 4]), r, F(repeating: k[o]))
                v = madd(madd(madd(v, g, F(repeating: k[o + 1])), b, F(repeating: k[o + 2])), a, F(repeating: k[o + 3]))
                return roundClamp(v, BothClamps.self)
            }
            let out = (row(2) & mask) | (row(1) &<< 8) | (row(0) &<< 16) | (row(3) &<< 24)
            (dst + 4 &* x).storeBytes(of: out, as: I.self)
            x &+= 8
        }
        return x
    }

    /// The matrix over the row, then the lookups (not interleaved: the level modules with
    /// intrinsics interleave them).
    @inlinable @inline(__always)
    public static func matrixCurve(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed,
                                   _ bytes: UnsafePointer<UInt8>, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let done = matrix3(src, dst, width, k, fixed, clamp)
        pairLookup(UnsafeRawPointer(dst), dst, 0, done, low, high)
        return done
    }

    /// acc + a·b. Fused (`addingProduct`) where every CPU of the target has FMA (arm64);
    /// on x86-64 a multiply and an add: the baseline (SSE2) has no FMA instruction, and
    /// `addingProduct` there becomes a call to `fmaf` per lane (sepia 44 ms instead of
    /// about 1 ms at 1080p). The levels with FMA use it in their own matrix steps.
    @inlinable @inline(__always)
    static func madd(_ acc: F, _ a: F, _ b: F) -> F {
        #if arch(x86_64)
        return acc + a * b
        #else
        return acc.addingProduct(a, b)
        #endif
    }

    // These helpers avoid `SIMD8<Float>(_:)` and `pointwiseMin/Max`: generic loops the
    // optimiser may or may not inline. One build called them out of line in the loop
    // (sepia 3.0 → 5.4 ms); `replacing(with:where:)` became compare-and-blend. Plain
    // loops over the eight lanes, inlined by force, become one `vpmaxsd` / `vpminsd`.

    /// x rounded to nearest and clamped to 0…255 as 0x4B000000 + value (see the type's comment).
    @inlinable @inline(__always)
    static func roundClamp<C: ClampMode>(_ x: F, _ mode: C.Type) -> I {
        var bits = unsafeBitCast(x + F(repeating: 8_388_608), to: I.self)
        if C.low { bits = lanewiseMax(bits, I(repeating: 0x4B00_0000)) }
        if C.high { bits = lanewiseMin(bits, I(repeating: 0x4B00_00FF)) }
        return bits
    }

    @inlinable @inline(__always)
    static func lanewiseMax(_ a: I, _ b: I) -> I {
        var r = a
        for i in 0..<8 { r[i] = Swift.max(a[i], b[i]) }
        return r
    }

    @inlinable @inline(__always)
    static func lanewiseMin(_ a: I, _ b: I) -> I {
        var r = a
        for i in 0..<8 { r[i] = Swift.min(a[i], b[i]) }
        return r
    }

    /// 0…255 in Int32 lanes to Float: the bits of 2^23 + v have v in the low mantissa.
    @inlinable @inline(__always)
    static func float(_ v: I) -> F {
        unsafeBitCast(v | I(repeating: 0x4B00_0000), to: F.self) - F(repeating: 8_388_608)
    }
}

/// Which of the two clamps a colour matrix can need (`FramelabFilters` works it out from
/// the matrix's extreme outputs over the RGB cube).
public enum ClampNeed: Equatable, Sendable {
    case both, high, low, none
}

/// Clamps chosen at compile time, so each specialised loop contains only what it needs.
public protocol ClampMode { static var low: Bool { get }; static var high: Bool { get } }
public enum BothClamps: ClampMode { @inlinable public static var low: Bool { true }; @inlinable public static var high: Bool { true } }
public enum HighClamp: ClampMode { @inlinable public static var low: Bool { false }; @inlinable public static var high: Bool { true } }
public enum LowClamp: ClampMode { @inlinable public static var low: Bool { true }; @inlinable public static var high: Bool { false } }
public enum NoClamp: ClampMode { @inlinable public static var low: Bool { false }; @inlinable public static var high: Bool { false } }
