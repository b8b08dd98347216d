import FramelabCore

/// The SIMD colour-matrix kernel: eight BGRA pixels per step as float vectors with fused
/// multiply-adds (one AVX2 register each), then a scalar tail.
///
/// Two vector loops compute the same thing:
/// - on x86-64, `AVX2MatrixStep`: hardware int/float conversions and saturating packs;
/// - everywhere (and in tests on x86-64), the portable `SIMD8` loop below, which rounds
///   with the 2^23 trick and clamps with integer min/max.
///
/// Why float and not fixed point: the target CPUs (AMD Zen 1 here) split 256-bit integer
/// multiplies into slow halves (`vpmulld` ymm issues every 4 cycles on one pipe), while
/// FMAs issue on two pipes. Measured at 1080p on one thread: 4.5 ms for the Int32
/// version, about 3.0 ms for the portable float loop, 2.0–2.2 ms for the AVX2 one
/// (docs/filters.md). Float also has more precision than 12-bit fixed point, so results
/// stay within ±1 of the Double reference.
///
/// The portable loop's rounding and clamping: for x > −2^23, the bits of `x + 2^23` as
/// Int32 grow with x and equal 0x4B000000 + round(x) on 0…255, so two integer min/max
/// clamp, and the low byte is the result (the 0x4B of the high byte shifts out when the
/// channel moves to its place). Clamps the matrix cannot need (a sepia matrix never goes
/// below 0; the identity never leaves 0…255) are left out by specialised loops.
struct ColorMatrixKernel {
    /// Which vector loop runs the 3x3 case.
    enum VectorLoop { case avx2, portable }

    /// Rows R, G, B, A of coefficients on R, G, B, A, then bias: 4 x 5 floats, flat.
    let coefficients: [Float]
    /// The same splatted, for the 4x4 loop (made once, so a frame allocates nothing).
    private let splats: [SIMD8<Float>]
    let keepsAlpha: Bool
    /// Which clamps the colour rows (and alpha, for 4x4) can need (portable loops).
    let clamp: ClampNeed
    let loop: VectorLoop
    #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
    /// The splats for the AVX2 step, when `loop` is `.avx2`.
    let avx2: AVX2MatrixStep?
    static let defaultLoop = VectorLoop.avx2
    #else
    static let defaultLoop = VectorLoop.portable
    #endif

    init(_ matrix: ColorMatrix, loop: VectorLoop = Self.defaultLoop) {
        coefficients = (0..<4).flatMap { r in (matrix.m[r] + [matrix.bias[r]]).map { Float($0) } }
        splats = coefficients.map { SIMD8(repeating: $0) }
        keepsAlpha = matrix.keepsAlpha
        clamp = ClampNeed(matrix, rows: keepsAlpha ? 3 : 4)
        self.loop = loop
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        avx2 = loop == .avx2 ? coefficients.withUnsafeBufferPointer { AVX2MatrixStep($0.baseAddress!) } : nil
        #endif
    }

    /// Applies to rows `rows` of `input` into `output` (same shape, bgra8 or bgr8; the
    /// same image for both is fine, each pixel is read before it is written).
    func apply(_ input: Mat, into output: Mat, rows: Range<Int>) {
        let width = input.width, step = input.format.bytesPerPixel
        coefficients.withUnsafeBufferPointer { k in
            splats.withUnsafeBufferPointer { c in
                let k = k.baseAddress!, c = c.baseAddress!
                forEachRowPair(input, output, rows: rows) { s, d in
                    var x = 0
                    if step == 4 { x = vectorRow(s, d, width, k, c) }
                    tail(s, d, from: x, to: width, step: step, k)
                }
            }
        }
    }

    /// The vector part of one BGRA row; returns the first pixel not done.
    @inline(__always)
    func vectorRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                   _ k: UnsafePointer<Float>, _ c: UnsafePointer<SIMD8<Float>>) -> Int {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        if keepsAlpha, let avx2 { return avx2.row(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), width) }
        #endif
        switch (keepsAlpha, clamp) {
        case (true, .both): return Self.row3(s, d, width, k, BothClamps.self)
        case (true, .high): return Self.row3(s, d, width, k, HighClamp.self)
        case (true, .low): return Self.row3(s, d, width, k, LowClamp.self)
        case (true, .none): return Self.row3(s, d, width, k, NoClamp.self)
        case (false, _): return Self.row4(s, d, width, c)
        }
    }

    /// `vectorRow` with the kernel's own coefficient buffers.
    func vectorRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int) -> Int {
        coefficients.withUnsafeBufferPointer { k in
            splats.withUnsafeBufferPointer { c in vectorRow(s, d, width, k.baseAddress!, c.baseAddress!) }
        }
    }

    typealias F = SIMD8<Float>
    typealias I = SIMD8<Int32>

    /// The portable 3x3 on B, G, R plus bias; alpha copied. Not inlined: each
    /// specialisation stays a small function of its own (see `roundClamp` for why).
    @inline(never)
    private static func row3<C: ClampMode>(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                           _ k: UnsafePointer<Float>, _ mode: C.Type) -> Int {
        // Splats once per row: the loop body is pure vector arithmetic.
        let rr = F(repeating: k[0]), rg = F(repeating: k[1]), rb = F(repeating: k[2]), r0 = F(repeating: k[4])
        let gr = F(repeating: k[5]), gg = F(repeating: k[6]), gb = F(repeating: k[7]), g0 = F(repeating: k[9])
        let br = F(repeating: k[10]), bg = F(repeating: k[11]), bb = F(repeating: k[12]), b0 = F(repeating: k[14])
        let mask = I(repeating: 0xFF), alpha = I(repeating: -16_777_216)
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let b = float(v & mask), g = float((v &>> 8) & mask), r = float((v &>> 16) & mask)
            let nr = roundClamp(r0.addingProduct(r, rr).addingProduct(g, rg).addingProduct(b, rb), C.self)
            let ng = roundClamp(g0.addingProduct(r, gr).addingProduct(g, gg).addingProduct(b, gb), C.self)
            let nb = roundClamp(b0.addingProduct(r, br).addingProduct(g, bg).addingProduct(b, bb), C.self)
            (dst + 4 &* x).storeBytes(of: (nb & mask) | (ng &<< 8) | (nr &<< 16) | (v & alpha), as: I.self)
            x &+= 8
        }
        return x
    }

    /// Full 4x4 including alpha (always clamped: alpha rows are rare and arbitrary).
    @inline(never)
    private static func row4(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                             _ c: UnsafePointer<F>) -> Int {
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        let mask = I(repeating: 0xFF)
        // Twenty splats do not fit sixteen registers: they are read from memory and folded
        // into the FMAs as memory operands, which costs no extra instruction.
        var x = 0
        while x &+ 8 <= width {
            let v = (src + 4 &* x).loadUnaligned(as: I.self)
            let b = float(v & mask), g = float((v &>> 8) & mask), r = float((v &>> 16) & mask), a = float((v &>> 24) & mask)
            @inline(__always) func row(_ i: Int) -> I {
                let o = 5 &* i
                return roundClamp(c[o + 4].addingProduct(r, c[o]).addingProduct(g, c[o + 1])
                    .addingProduct(b, c[o + 2]).addingProduct(a, c[o + 3]), BothClamps.self)
            }
            let out = (row(2) & mask) | (row(1) &<< 8) | (row(0) &<< 16) | (row(3) &<< 24)
            (dst + 4 &* x).storeBytes(of: out, as: I.self)
            x &+= 8
        }
        return x
    }

    // These helpers avoid `SIMD8<Float>(_:)` and `pointwiseMin/Max`: generic loops the
    // optimiser may or may not inline. One build called them out of line in the loop
    // (sepia 3.0 → 5.4 ms); `replacing(with:where:)` became compare-and-blend. Plain
    // loops over the eight lanes, inlined by force, become one `vpmaxsd` / `vpminsd`.

    /// x rounded to nearest and clamped to 0…255 as 0x4B000000 + value (see the type's comment).
    @inline(__always)
    static func roundClamp<C: ClampMode>(_ x: F, _ mode: C.Type) -> I {
        var bits = unsafeBitCast(x + F(repeating: 8_388_608), to: I.self)
        if C.low { bits = lanewiseMax(bits, I(repeating: 0x4B00_0000)) }
        if C.high { bits = lanewiseMin(bits, I(repeating: 0x4B00_00FF)) }
        return bits
    }

    @inline(__always)
    static func lanewiseMax(_ a: I, _ b: I) -> I {
        var r = a
        for i in 0..<8 { r[i] = Swift.max(a[i], b[i]) }
        return r
    }

    @inline(__always)
    static func lanewiseMin(_ a: I, _ b: I) -> I {
        var r = a
        for i in 0..<8 { r[i] = Swift.min(a[i], b[i]) }
        return r
    }

    /// 0…255 in Int32 lanes to Float: the bits of 2^23 + v have v in the low mantissa.
    @inline(__always)
    static func float(_ v: I) -> F {
        unsafeBitCast(v | I(repeating: 0x4B00_0000), to: F.self) - F(repeating: 8_388_608)
    }

    /// Pixels start..<width of one row in scalar code (what the vector loop left over).
    func applyRowTail(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, from start: Int, to width: Int,
                      _ k: UnsafePointer<Float>) {
        tail(s, d, from: start, to: width, step: 4, k)
    }

    /// Scalar tail in the same float arithmetic (and the whole row for bgr8, whose 3-byte
    /// pixels do not fit 32-bit lanes).
    @inline(__always)
    private func tail(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, from start: Int, to width: Int,
                      step: Int, _ k: UnsafePointer<Float>) {
        for x in start..<width {
            let p = x * step
            let b = Float(s[p]), g = Float(s[p + 1]), r = Float(s[p + 2])
            let a: Float = step == 4 ? Float(s[p + 3]) : 255
            @inline(__always) func row(_ i: Int) -> UInt8 {
                let o = 5 * i
                let v = k[o + 4] + k[o] * r + k[o + 1] * g + k[o + 2] * b + k[o + 3] * a
                return UInt8(max(0, min(255, (v + 0.5).rounded(.down))))
            }
            let nr = row(0), ng = row(1), nb = row(2)
            if step == 4 { d[p + 3] = keepsAlpha ? s[p + 3] : row(3) }
            d[p + 2] = nr
            d[p + 1] = ng
            d[p] = nb
        }
    }
}

/// Which of the two clamps a matrix can need, from its extreme outputs over the RGB cube
/// (each coefficient's extreme is at 0 or 255, so summing the negative and the positive
/// parts gives the exact minimum and maximum).
enum ClampNeed: Equatable {
    case both, high, low, none

    init(_ matrix: ColorMatrix, rows: Int) {
        var low = false, high = false
        for r in 0..<rows {
            let terms = (0..<4).map { c in matrix.m[r][c] * (c == 3 && rows == 3 ? 0 : 255) }
            let lowest = matrix.bias[r] + terms.filter { $0 < 0 }.reduce(0, +)
            let highest = matrix.bias[r] + terms.filter { $0 > 0 }.reduce(0, +)
            // Values in (−0.5, 255.5) round into 0…255 by themselves; the quarter-level
            // margin covers float rounding of the coefficients.
            if lowest < -0.25 { low = true }
            if highest > 255.25 { high = true }
        }
        switch (low, high) {
        case (true, true): self = .both
        case (false, true): self = .high
        case (true, false): self = .low
        case (false, false): self = .none
        }
    }
}

/// Clamps chosen at compile time, so each specialised loop contains only what it needs.
protocol ClampMode { static var low: Bool { get }; static var high: Bool { get } }
enum BothClamps: ClampMode { static var low: Bool { true }; static var high: Bool { true } }
enum HighClamp: ClampMode { static var low: Bool { false }; static var high: Bool { true } }
enum LowClamp: ClampMode { static var low: Bool { true }; static var high: Bool { false } }
enum NoClamp: ClampMode { static var low: Bool { false }; static var high: Bool { false } }
