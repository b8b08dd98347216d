#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// bgr8 rows straight through the fixed-point matrix, the matrix then the curve, vibrance,
/// luma, and the curve alone (`curveThreeByte`, on the bytes where they are). The matrix loops take
/// sixteen pixels (48 bytes) a step: a masked load of exactly the 48 bytes, one `vpermb`
/// to BGRA lanes, the same sixteen-pixel steps as the BGRA loops (`avx512IntegerMatrixSixteen`,
/// `curveSixteen`), one `vpermb` back to three bytes a pixel and a masked store of the 48
/// bytes; the row's last pixels the same with shorter masks, so the whole row is done and
/// nothing past it is read or written (in place safe: a step stores only bytes it read).
extension AVX512VBMIKernels {
    public static func matrix3ThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                        _ fixed: UnsafePointer<Int32>) -> Int {
        let c = avx512IntegerMatrixSplats(fixed)
        return threeByteRow(s, d, width) { avx512IntegerMatrixSixteen($0, c) }
    }

    public static func matrixCurveThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                            _ fixed: UnsafePointer<Int32>, _ bytes: UnsafePointer<UInt8>,
                                            _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let t = curveTables(bytes), c = avx512IntegerMatrixSplats(fixed)
        if sameOnEveryChannel(t) { return threeByteRow(s, d, width) { sameCurveSixteen(avx512IntegerMatrixSixteen($0, c), t) } }
        return threeByteRow(s, d, width) { curveSixteen(avx512IntegerMatrixSixteen($0, c), t) }
    }

    /// Vibrance on a bgr8 row, sixteen pixels a step (`avx512VibranceSixteen` between the
    /// widening and narrowing permutes); returns `width`.
    public static func vibranceThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                         _ amount: Int32) -> Int {
        let c = avx512VibranceSplats(amount)
        return threeByteRow(s, d, width) { avx512VibranceSixteen($0, c) }
    }

    /// The curve on a bgr8 row's bytes where they are: with one table for all three channels
    /// (`sameOnEveryChannel`) 64 bytes a step by two permutes whatever a byte's channel;
    /// otherwise 48 bytes (sixteen pixels) a step, each channel's two permutes masked to
    /// every third byte. The row's last bytes by shorter masks; returns `width`. (The pair
    /// tables `KernelTable.curveThreeByte` passes are for the avx2 loop, not used here.)
    public static func curveThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                      _ bytes: UnsafePointer<UInt8>,
                                      _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let t = curveTables(bytes), count = 3 &* width
        if sameOnEveryChannel(t) {
            @inline(__always) func step(_ i: Int, _ mask: UInt64) {
                let v = _mm512_maskz_loadu_epi8(mask, s + i)
                let upper = _mm512_movepi8_mask(v)
                let lowerHalf = _mm512_mask2_permutex2var_epi8(t.b0, v, ~upper, t.b1)
                _mm512_mask_storeu_epi8(d + i, mask, _mm512_mask2_permutex2var_epi8(t.b2, lowerHalf, upper, t.b3))
            }
            byteSteps(count, by: 64, step)
            return width
        }
        // Bytes 0, 3, 6, … of a 48-byte step are blue, 1, 4, 7, … green, 2, 5, 8, … red.
        let blue: UInt64 = 0x2492_4924_9249, green = blue &<< 1, red = blue &<< 2
        @inline(__always) func step(_ i: Int, _ mask: UInt64) {
            let v = _mm512_maskz_loadu_epi8(mask, s + i)
            let upper = _mm512_movepi8_mask(v)
            var x = _mm512_mask2_permutex2var_epi8(t.b0, v, blue & ~upper, t.b1)
            x = _mm512_mask2_permutex2var_epi8(t.b2, x, blue & upper, t.b3)
            x = _mm512_mask2_permutex2var_epi8(t.g0, x, green & ~upper, t.g1)
            x = _mm512_mask2_permutex2var_epi8(t.g2, x, green & upper, t.g3)
            x = _mm512_mask2_permutex2var_epi8(t.r0, x, red & ~upper, t.r1)
            _mm512_mask_storeu_epi8(d + i, mask, _mm512_mask2_permutex2var_epi8(t.r2, x, red & upper, t.r3))
        }
        byteSteps(count, by: 48, step)
        return width
    }

    /// `step(i, mask)` for the bytes 0..<count of a row, `size` (48 or 64) at a time: `mask`
    /// has a bit for each byte of the step, the last step's only for the bytes left, so the
    /// masked loads and stores touch nothing past the row.
    @inline(__always)
    static func byteSteps(_ count: Int, by size: Int, _ step: (_ i: Int, _ mask: UInt64) -> Void) {
        let full: UInt64 = size == 64 ? ~0 : (1 &<< UInt64(size)) &- 1
        var i = 0
        while i &+ size <= count { step(i, full); i &+= size }
        if i < count { step(i, (1 &<< UInt64(count &- i)) &- 1) }
    }

    /// The `vpermb` indices that spread sixteen pixels' 48 bytes to BGRA lanes: lane i takes
    /// bytes 3i…3i+3 (the fourth, the next pixel's B, lands in alpha, which the steps carry
    /// and ignore or drop).
    @inline(__always)
    static func widening() -> __m512i {
        @inline(__always) func word(_ i: Int32) -> Int32 { 0x0302_0100 &+ i &* 0x0303_0303 }
        // (`_mm512_setr_epi32` is a macro Swift cannot import: `_mm512_set_epi32` takes lane 15 first.)
        return _mm512_set_epi32(word(15), word(14), word(13), word(12), word(11), word(10), word(9), word(8),
                                word(7), word(6), word(5), word(4), word(3), word(2), word(1), word(0))
    }

    /// Luma of a bgr8 row into gray bytes, sixteen pixels a step: a masked load of their 48
    /// bytes, the widening permute, `avx512LumaSixteen`, a 16-byte store; the last pixels the
    /// same under masks. Returns `width`. Where the avx512 level's BGRA luma took bgr8 rows
    /// through a BGRA buffer 64 pixels at a time, reading with 64-byte loads what the
    /// widening had just stored in 32-byte halves, the 512-bit loop made a 1080p frame slower
    /// than the portable one (0.46–0.47 against 0.38–0.40 ms, Zen 5).
    public static func lumaThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int) -> Int {
        let widen = widening()
        var x = 0
        while x &+ 16 <= width {
            let v = _mm512_maskz_loadu_epi8(0xFFFF_FFFF_FFFF, s + 3 &* x)
            UnsafeMutableRawPointer(d + x).storeBytes(of: avx512LumaSixteen(_mm512_permutexvar_epi8(widen, v)), as: __m128i.self)
            x &+= 16
        }
        if x < width {
            let n = width &- x
            let v = _mm512_maskz_loadu_epi8((1 &<< UInt64(3 &* n)) &- 1, s + 3 &* x)
            _mm_mask_storeu_epi8(d + x, avx512PixelMask(n), avx512LumaSixteen(_mm512_permutexvar_epi8(widen, v)))
        }
        return width
    }

    /// A whole bgr8 row through a sixteen-pixel BGRA step; returns `width`. Inlined at each
    /// call with its step.
    @inline(__always)
    static func threeByteRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                             _ sixteen: (__m512i) -> __m512i) -> Int {
        // Byte m of the narrowing is byte m % 3 of lane m / 3.
        @inline(__always) func narrowWord(_ q: Int32) -> Int32 {
            @inline(__always) func byte(_ m: Int32) -> Int32 { m < 48 ? 4 &* (m / 3) &+ m % 3 : 0 }
            return byte(4 &* q) | byte(4 &* q &+ 1) &<< 8 | byte(4 &* q &+ 2) &<< 16 | byte(4 &* q &+ 3) &<< 24
        }
        let widen = widening(), narrow = _mm512_set_epi32(narrowWord(15), narrowWord(14), narrowWord(13), narrowWord(12), narrowWord(11),
                                      narrowWord(10), narrowWord(9), narrowWord(8), narrowWord(7), narrowWord(6),
                                      narrowWord(5), narrowWord(4), narrowWord(3), narrowWord(2), narrowWord(1),
                                      narrowWord(0))
        byteSteps(3 &* width, by: 48) { i, mask in
            let v = _mm512_maskz_loadu_epi8(mask, s + i)
            _mm512_mask_storeu_epi8(d + i, mask, _mm512_permutexvar_epi8(narrow, sixteen(_mm512_permutexvar_epi8(widen, v))))
        }
        return width
    }
}
#endif
