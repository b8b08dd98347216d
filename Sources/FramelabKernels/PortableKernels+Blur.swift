#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The Gaussian blur's kernels, on 16-bit samples taken two taps at a time.
///
/// Both passes are sums Σ w[k]·s[k] over 2r + 1 taps. With samples stored as pairs of
/// Int16 (two taps side by side) and weights splatted as the same pairs, one
/// multiply-add-pairs instruction (`pmaddwd`: sixteen 16-bit products summed in adjacent
/// pairs into eight Int32) does two taps of eight outputs. The vertical pass then reads
/// r + 1 vectors per eight outputs, not 2r + 1 (half the bytes from the ring, which lives in
/// L2), and does r + 1 multiply-adds. Samples are ≤ 32640 (7 fractional bits) and weights
/// sum to 2^14, so every product and sum fits Int32.
///
/// The loops take the pair product as a parameter, so each level passes its widest
/// instruction (`AVX2Kernels` passes `vpmaddwd` on 256 bits); `pairProducts` is the
/// portable one.
extension PortableKernels {
    /// Sixteen Int16 as eight pairs.
    public typealias Pairs = SIMD16<Int16>

    /// Eight sums of adjacent products: a[2j]·b[2j] + a[2j+1]·b[2j+1]. On x86-64, SSE2's
    /// `pmaddwd` on each half (every x86-64 CPU has it); elsewhere the even and odd lanes
    /// widened and multiplied (NEON's widening multiply-adds).
    @inlinable @inline(__always)
    public static func pairProducts(_ a: Pairs, _ b: Pairs) -> I {
        #if arch(x86_64)
        let low = _mm_madd_epi16(unsafeBitCast(a.lowHalf, to: __m128i.self), unsafeBitCast(b.lowHalf, to: __m128i.self))
        let high = _mm_madd_epi16(unsafeBitCast(a.highHalf, to: __m128i.self), unsafeBitCast(b.highHalf, to: __m128i.self))
        return I(lowHalf: unsafeBitCast(low, to: SIMD4<Int32>.self), highHalf: unsafeBitCast(high, to: SIMD4<Int32>.self))
        #else
        let even = I(truncatingIfNeeded: a.evenHalf) &* I(truncatingIfNeeded: b.evenHalf)
        return even &+ I(truncatingIfNeeded: a.oddHalf) &* I(truncatingIfNeeded: b.oddHalf)
        #endif
    }

    /// Two rows of samples as pairs: out[2i] = a[i], out[2i + 1] = b[i] for i < n, eight
    /// at a time; returns how many it did (the caller finishes the rest).
    @inlinable @inline(__always)
    public static func blurInterleave(_ a: UnsafePointer<Int16>, _ b: UnsafePointer<Int16>,
                                      _ out: UnsafeMutablePointer<Int16>, _ n: Int) -> Int {
        var i = 0
        while i &+ 8 <= n {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Int16>.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Int16>.self)
            let pairs = Pairs(x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7])
            UnsafeMutableRawPointer(out + 2 &* i).storeBytes(of: pairs, as: Pairs.self)
            i &+= 8
        }
        return i
    }

    /// A row of bytes as the horizontal pass's pairs, each sample with the one `channels`
    /// on: out[2j] = s[j], out[2j + 1] = s[j + channels] for j < n (reads s[0..<n + channels]),
    /// sixteen a step; returns how many it did (the caller finishes the rest). Bytes go
    /// straight to pairs: no row of Int16 samples in between. On x86-64, SSE2's byte unpacks
    /// (the same instructions at every level, so not a kernel-table entry).
    @inlinable @inline(__always)
    public static func blurPairBytes(_ s: UnsafePointer<UInt8>, _ channels: Int,
                                     _ out: UnsafeMutablePointer<Int16>, _ n: Int) -> Int {
        var j = 0
        while j &+ 16 <= n {
            let x = UnsafeRawPointer(s + j).loadUnaligned(as: SIMD16<UInt8>.self)
            let y = UnsafeRawPointer(s + (j &+ channels)).loadUnaligned(as: SIMD16<UInt8>.self)
            let o = UnsafeMutableRawPointer(out + 2 &* j)
            #if arch(x86_64)
            // x0 y0 x1 y1 … as bytes, then each byte widened by a zero byte above it.
            let a = unsafeBitCast(x, to: __m128i.self), b = unsafeBitCast(y, to: __m128i.self), zero = _mm_setzero_si128()
            let low = _mm_unpacklo_epi8(a, b), high = _mm_unpackhi_epi8(a, b)
            o.storeBytes(of: unsafeBitCast(_mm_unpacklo_epi8(low, zero), to: SIMD8<Int16>.self), as: SIMD8<Int16>.self)
            (o + 16).storeBytes(of: unsafeBitCast(_mm_unpackhi_epi8(low, zero), to: SIMD8<Int16>.self), as: SIMD8<Int16>.self)
            (o + 32).storeBytes(of: unsafeBitCast(_mm_unpacklo_epi8(high, zero), to: SIMD8<Int16>.self), as: SIMD8<Int16>.self)
            (o + 48).storeBytes(of: unsafeBitCast(_mm_unpackhi_epi8(high, zero), to: SIMD8<Int16>.self), as: SIMD8<Int16>.self)
            #else
            var first = Pairs(), second = Pairs()
            for k in 0..<8 {
                first[2 &* k] = Int16(x[k]); first[2 &* k &+ 1] = Int16(y[k])
                second[2 &* k] = Int16(x[k &+ 8]); second[2 &* k &+ 1] = Int16(y[k &+ 8])
            }
            o.storeBytes(of: first, as: Pairs.self)
            (o + 32).storeBytes(of: second, as: Pairs.self)
            #endif
            j &+= 16
        }
        return j
    }

    /// Horizontal pass: pair j of `pairs` is (s[j], s[j + channels]) of a padded row s, so
    /// output i = Σ_p pairs at j = i + 2p·channels times weight pair p, for p < `count`;
    /// stored as (sum + 64) >> 7 (weights sum to 2^14: 7 fractional bits). 32 outputs a
    /// step in four sums (each weight pair loaded once for four vectors), then eight.
    /// Returns how many outputs it wrote.
    @inlinable @inline(__always)
    public static func blurHorizontal(_ pairs: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>, _ n: Int,
                                      _ channels: Int, _ weights: UnsafePointer<Pairs>, _ count: Int,
                                      _ products: (Pairs, Pairs) -> I) -> Int {
        // Pair j is 4 bytes; the next tap pair is 2·channels pairs on.
        let step = 8 &* channels, round = I(repeating: 64)
        @inline(__always) func narrow(_ acc: I, _ at: Int) {
            UnsafeMutableRawPointer(out + at).storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: (acc &+ round) &>> 7),
                                                         as: SIMD8<Int16>.self)
        }
        var i = 0
        while i &+ 32 <= n {
            let base = UnsafeRawPointer(pairs + 2 &* i)
            let (a0, a1, a2, a3) = fourSums(count, weights, products) { base + $0 &* step }
            narrow(a0, i); narrow(a1, i &+ 8); narrow(a2, i &+ 16); narrow(a3, i &+ 24)
            i &+= 32
        }
        while i &+ 8 <= n {
            let base = UnsafeRawPointer(pairs + 2 &* i)
            narrow(oneSum(count, weights, products) { base + $0 &* step }, i)
            i &+= 8
        }
        return i
    }

    /// Vertical pass: `slots[p]` is the offset in `ring` of a row of pairs (two horizontally
    /// blurred rows interleaved); byte i = min(255, (Σ_p pair i of slot p times weight pair
    /// p + 2^20) >> 21). 32 bytes a step in four sums (each slot read 128 bytes at a time,
    /// its offset and weights loaded once for four vectors), then eight. Returns how many
    /// bytes it wrote.
    @inlinable @inline(__always)
    public static func blurVertical(_ ring: UnsafePointer<Int16>, _ slots: UnsafePointer<Int>,
                                    _ weights: UnsafePointer<Pairs>, _ count: Int,
                                    _ dst: UnsafeMutablePointer<UInt8>, _ n: Int,
                                    _ products: (Pairs, Pairs) -> I) -> Int {
        @inline(__always) func narrow(_ acc: I, _ at: Int) { storeBlurredBytes(acc, dst + at) }
        var i = 0
        while i &+ 32 <= n {
            let (a0, a1, a2, a3) = fourSums(count, weights, products) { UnsafeRawPointer(ring + slots[$0] + 2 &* i) }
            narrow(a0, i); narrow(a1, i &+ 8); narrow(a2, i &+ 16); narrow(a3, i &+ 24)
            i &+= 32
        }
        while i &+ 8 <= n {
            narrow(oneSum(count, weights, products) { UnsafeRawPointer(ring + slots[$0] + 2 &* i) }, i)
            i &+= 8
        }
        return i
    }

    /// Eight vertical sums as bytes at `dst`: min(255, (sum + 2^20) >> 21), the two passes'
    /// 2^14 weights each and the horizontal pass's 7 fractional bits taken off with rounding.
    @inlinable @inline(__always)
    static func storeBlurredBytes(_ acc: I, _ dst: UnsafeMutablePointer<UInt8>) {
        let v = lanewiseMin((acc &+ I(repeating: 1 << 20)) &>> 21, I(repeating: 255))
        UnsafeMutableRawPointer(dst).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: v), as: SIMD8<UInt8>.self)
    }

    /// Σ_k products(the 32 bytes at address(k) + 32j, weights[k]) for j = 0..<4: four sums
    /// of eight outputs, each weight pair and address found once for the four vectors.
    @inlinable @inline(__always)
    static func fourSums(_ count: Int, _ weights: UnsafePointer<Pairs>, _ products: (Pairs, Pairs) -> I,
                         _ address: (Int) -> UnsafeRawPointer) -> (I, I, I, I) {
        var a0 = I(), a1 = I(), a2 = I(), a3 = I()
        for k in 0..<count {
            let p = address(k), w = weights[k]
            a0 &+= products(p.loadUnaligned(as: Pairs.self), w)
            a1 &+= products((p + 32).loadUnaligned(as: Pairs.self), w)
            a2 &+= products((p + 64).loadUnaligned(as: Pairs.self), w)
            a3 &+= products((p + 96).loadUnaligned(as: Pairs.self), w)
        }
        return (a0, a1, a2, a3)
    }

    /// Σ_k products(the 32 bytes at address(k), weights[k]): one sum of eight outputs.
    @inlinable @inline(__always)
    static func oneSum(_ count: Int, _ weights: UnsafePointer<Pairs>, _ products: (Pairs, Pairs) -> I,
                       _ address: (Int) -> UnsafeRawPointer) -> I {
        var acc = I()
        for k in 0..<count { acc &+= products(address(k).loadUnaligned(as: Pairs.self), weights[k]) }
        return acc
    }

    /// The vertical pass for two output rows two apart (y and y + 2), which share all but one
    /// of their slots: `slots` holds count + 1 offsets; the first row combines slots 0..<count,
    /// the second slots 1...count, each with weight pairs 0..<count, as `blurVertical`. Each
    /// shared slot is read once for both rows: half the bytes from the ring. 32 bytes of each
    /// row a step in eight sums, then eight. `count` is r + 1 ≥ 1. Returns how many bytes of each
    /// row it wrote.
    @inlinable @inline(__always)
    public static func blurVerticalTwo(_ ring: UnsafePointer<Int16>, _ slots: UnsafePointer<Int>,
                                       _ weights: UnsafePointer<Pairs>, _ count: Int,
                                       _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, _ n: Int,
                                       _ products: (Pairs, Pairs) -> I) -> Int {
        @inline(__always) func narrow(_ acc: I, _ dst: UnsafeMutablePointer<UInt8>, _ at: Int) { storeBlurredBytes(acc, dst + at) }
        @inline(__always) func load(_ slot: Int, _ at: Int) -> Pairs {
            UnsafeRawPointer(ring + slots[slot] + 2 &* at).loadUnaligned(as: Pairs.self)
        }
        var i = 0
        while i &+ 32 <= n {
            // Slot 0 for the first row only, slot `count` for the second only, the rest for both.
            let w0 = weights[0], wl = weights[count &- 1]
            var a0 = products(load(0, i), w0), a1 = products(load(0, i &+ 8), w0)
            var a2 = products(load(0, i &+ 16), w0), a3 = products(load(0, i &+ 24), w0)
            var b0 = products(load(count, i), wl), b1 = products(load(count, i &+ 8), wl)
            var b2 = products(load(count, i &+ 16), wl), b3 = products(load(count, i &+ 24), wl)
            for k in 1..<count {
                let p = UnsafeRawPointer(ring + slots[k] + 2 &* i), wa = weights[k], wb = weights[k &- 1]
                let v0 = p.loadUnaligned(as: Pairs.self), v1 = (p + 32).loadUnaligned(as: Pairs.self)
                a0 &+= products(v0, wa); b0 &+= products(v0, wb)
                a1 &+= products(v1, wa); b1 &+= products(v1, wb)
                let v2 = (p + 64).loadUnaligned(as: Pairs.self), v3 = (p + 96).loadUnaligned(as: Pairs.self)
                a2 &+= products(v2, wa); b2 &+= products(v2, wb)
                a3 &+= products(v3, wa); b3 &+= products(v3, wb)
            }
            narrow(a0, first, i); narrow(a1, first, i &+ 8); narrow(a2, first, i &+ 16); narrow(a3, first, i &+ 24)
            narrow(b0, second, i); narrow(b1, second, i &+ 8); narrow(b2, second, i &+ 16); narrow(b3, second, i &+ 24)
            i &+= 32
        }
        while i &+ 8 <= n {
            var a = products(load(0, i), weights[0]), b = products(load(count, i), weights[count &- 1])
            for k in 1..<count {
                let v = load(k, i)
                a &+= products(v, weights[k])
                b &+= products(v, weights[k &- 1])
            }
            narrow(a, first, i); narrow(b, second, i)
            i &+= 8
        }
        return i
    }
}
