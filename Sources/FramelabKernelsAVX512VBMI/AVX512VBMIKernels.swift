#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel
#endif

/// The avx512 level's colour-matrix and curve kernels on a CPU with AVX-512 VBMI and VNNI
/// (Ice Lake, Sapphire Rapids, Zen 4 and later): this module is compiled with
/// -march=x86-64-v4 -mavx512vbmi -mavx512vnni, apart from the avx512 module because the
/// compiler may use those anywhere in a module built with them, and Skylake-SP has AVX-512
/// without either (Cascade Lake has VNNI, not VBMI). `KernelLevel` uses these entries only
/// when CPUID reports both. The matrix runs in 16-bit fixed point where its weights fit
/// (`AVX512IntegerMatrixStep.swift`).
///
/// A curve is three 256-byte tables, twelve 64-byte registers. `vpermi2b` looks up 64 bytes
/// at once in a 128-byte table (two registers) by the low seven bits of each index byte,
/// and its masked form keeps the index byte where the mask is clear. Six of them in a chain,
/// one per channel and table half (bit 7 of the byte), each masked to its own bytes, turn
/// sixteen BGRA pixels into their curve values in registers with alpha untouched: about
/// twelve instructions for sixteen pixels, where pair tables take two scalar lookups a pixel.
/// When the three tables are the same (most curves), two lookups do all three channels.
public enum AVX512VBMIKernels {
    #if arch(x86_64)
    /// True in an x86-64 build (the entry points below exist only there).
    public static let isBuilt = true

    /// Vibrance sixteen pixels a step, with VNNI's multiply-adds (`avx512VibranceSixteen`);
    /// returns `width`.
    public static func vibrance(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ amount: Int32) -> Int {
        let c = avx512VibranceSplats(amount)
        return avx512Row(s, d, width) { avx512VibranceSixteen($0, c) }
    }

    public static func curve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ bytes: UnsafePointer<UInt8>,
                             _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let t = curveTables(bytes)
        if sameOnEveryChannel(t) { return avx512Row(s, d, width) { sameCurveSixteen($0, t) } }
        return avx512Row(s, d, width) { curveSixteen($0, t) }
    }

    /// The colour matrix: the 16-bit VNNI step when the matrix's weights fit it, else the
    /// float step (`AVX512IntegerMatrixStep.swift`).
    public static func matrix3(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed) -> Int {
        if let fixed {
            let c = avx512IntegerMatrixSplats(fixed)
            return avx512Row(s, d, width) { avx512IntegerMatrixSixteen($0, c) }
        }
        let c = avx512MatrixSplats(k)
        return avx512Row(s, d, width) { avx512MatrixSixteen($0, c) }
    }

    /// The matrix step (as `matrix3` chooses it) and the curve on the same sixteen pixels in
    /// registers, one store; sixty-four pixels a step for the fixed-point matrix and a curve
    /// that is the same on B, G and R (`AVX512SixtyFourStep.swift`), the recipes' usual case.
    public static func matrixCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed,
                                   _ bytes: UnsafePointer<UInt8>, _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        let t = curveTables(bytes), same = sameOnEveryChannel(t)
        if let fixed {
            let c = avx512IntegerMatrixSplats(fixed)
            if same { return sixtyFourRow(s, d, width, c, t) }
            return matrixThenCurve(s, d, width, t, same) { avx512IntegerMatrixSixteen($0, c) }
        }
        let c = avx512MatrixSplats(k)
        return matrixThenCurve(s, d, width, t, same) { avx512MatrixSixteen($0, c) }
    }

    /// A whole row through `matrix`, then the curve `t` (one lookup for all three channels
    /// when `same`, `sameOnEveryChannel(t)`). Inlined at each call, so each matrix step has
    /// its own two loops with the step and the lookups inlined in them. The step is a
    /// closure, not a type conforming to a protocol: a type would bring metadata and helpers
    /// under names other modules share (AVX512Step.swift).
    @inline(__always)
    static func matrixThenCurve(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ t: CurveTables,
                                _ same: Bool, _ matrix: (__m512i) -> __m512i) -> Int {
        if same { return avx512Row(s, d, width) { sameCurveSixteen(matrix($0), t) } }
        return avx512Row(s, d, width) { curveSixteen(matrix($0), t) }
    }

    /// The three tables (B, G, R, 256 bytes each) as twelve 64-byte registers.
    typealias CurveTables = (b0: __m512i, b1: __m512i, b2: __m512i, b3: __m512i, g0: __m512i, g1: __m512i, g2: __m512i,
                             g3: __m512i, r0: __m512i, r1: __m512i, r2: __m512i, r3: __m512i)

    @inline(__always)
    static func curveTables(_ bytes: UnsafePointer<UInt8>) -> CurveTables {
        let p = UnsafeRawPointer(bytes)
        @inline(__always) func part(_ i: Int) -> __m512i { (p + 64 &* i).loadUnaligned(as: __m512i.self) }
        return (part(0), part(1), part(2), part(3), part(4), part(5), part(6), part(7), part(8), part(9), part(10), part(11))
    }

    /// Sixteen BGRA pixels through the curve: each of the six lookups writes only the bytes
    /// of its channel whose bit 7 selects its half of the table, and passes the others on,
    /// so later lookups still see the original bytes as their indices. A channel's
    /// upper-half mask comes from one byte test of bit 7, its lower-half mask from that in a
    /// mask register (`kandn`): with `vpmovb2m` and the masks combined in general registers,
    /// each of the six masks had also cost a move into a mask register, on the port the
    /// permutes need.
    @inline(__always)
    static func curveSixteen(_ v: __m512i, _ t: CurveTables) -> __m512i {
        let blue: UInt64 = 0x1111_1111_1111_1111, green = blue &<< 1, red = blue &<< 2
        let blueUpper = _mm512_test_epi8_mask(v, _mm512_set1_epi32(0x80))
        let greenUpper = _mm512_test_epi8_mask(v, _mm512_set1_epi32(0x8000))
        let redUpper = _mm512_test_epi8_mask(v, _mm512_set1_epi32(0x80_0000))
        var x = _mm512_mask2_permutex2var_epi8(t.b0, v, _kandn_mask64(blueUpper, blue), t.b1)
        x = _mm512_mask2_permutex2var_epi8(t.b2, x, blueUpper, t.b3)
        x = _mm512_mask2_permutex2var_epi8(t.g0, x, _kandn_mask64(greenUpper, green), t.g1)
        x = _mm512_mask2_permutex2var_epi8(t.g2, x, greenUpper, t.g3)
        x = _mm512_mask2_permutex2var_epi8(t.r0, x, _kandn_mask64(redUpper, red), t.r1)
        return _mm512_mask2_permutex2var_epi8(t.r2, x, redUpper, t.r3)
    }

    /// True when B, G and R have the same table (gamma, exposure, toneCurve, and the curves
    /// recipes fold them into): one lookup then serves all three channels.
    @inline(__always)
    static func sameOnEveryChannel(_ t: CurveTables) -> Bool {
        @inline(__always) func differ(_ a: __m512i, _ b: __m512i) -> UInt64 {
            let x = _mm512_xor_si512(a, b)
            return _mm512_test_epi8_mask(x, x)
        }
        return differ(t.b0, t.g0) | differ(t.b1, t.g1) | differ(t.b2, t.g2) | differ(t.b3, t.g3)
            | differ(t.b0, t.r0) | differ(t.b1, t.r1) | differ(t.b2, t.r2) | differ(t.b3, t.r3) == 0
    }

    /// `curveSixteen` when every channel has the blue table: two lookups instead of six.
    @inline(__always)
    static func sameCurveSixteen(_ v: __m512i, _ t: CurveTables) -> __m512i {
        // The upper half's mask by one byte test (bit 7 of B, G and R), the lower half's
        // from it in a mask register: where `vpmovb2m` and masks combined in general
        // registers took six instructions, two of them on the port the permutes need.
        let upper = _mm512_test_epi8_mask(v, _mm512_set1_epi32(0x0080_8080))
        let x = _mm512_mask2_permutex2var_epi8(t.b0, v, _kandn_mask64(upper, 0x7777_7777_7777_7777), t.b1)
        return _mm512_mask2_permutex2var_epi8(t.b2, x, upper, t.b3)
    }
    #else
    /// Not an x86-64 build: no VBMI kernels.
    public static let isBuilt = false
    #endif
}
