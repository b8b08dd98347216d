/// The vector kernels of one instruction-set level: the inner loops of the built-in filters
/// on raw rows. `FramelabFilters` picks one table at start-up (`KernelLevel`) and its
/// filters call only through it; each level's table lives in a module compiled for that
/// level (docs/filters.md, "Kernel levels").
///
/// Every entry is a vector main loop over one row. Those that return an `Int` return the
/// first element they did not do, and the caller finishes the row with its scalar tail;
/// the others do the whole row. Pointers are valid only for the call; `src` and `dst`
/// may be the same row unless an entry says otherwise.
public struct KernelTable: Sendable {
    /// The level's name, as `FRAMELAB_ISA` and bench results spell it.
    public let name: String

    /// BGRA pixels through a 3x3 colour matrix plus bias on B, G, R; alpha kept. `k` is the
    /// 4 x 5 layout (rows R, G, B, A on R, G, B, A, then bias); `fixed` its fixed-point
    /// weights (`FixedPointMatrix.weights(of:)`), nil where it does not fit; `clamp` says
    /// which clamps the matrix can need (loops that clamp by saturation ignore it).
    public let matrix3: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed) -> Int
    /// bgr8 pixels through `matrix3`'s matrix by its fixed-point weights, straight from row
    /// to row (the same row is fine); returns how many it did: whole steps of 8 at avx2, the
    /// whole row with VBMI's masks, none at a level without the loop (the caller goes
    /// through the BGRA buffer). Reads and writes nothing past the row's `width` pixels.
    public let matrix3ThreeByte: @Sendable (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int,
                                            _ fixed: UnsafePointer<Int32>) -> Int
    /// BGRA pixels through the full 4x4 matrix plus bias (alpha changes); `k` as above.
    public let matrix4: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                   _ k: UnsafePointer<Float>) -> Int
    /// `matrix3` then the curve (`curve`) on the same pixels; every pixel before the
    /// returned index has had both.
    public let matrixCurve: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                       _ k: UnsafePointer<Float>, _ fixed: UnsafePointer<Int32>?, _ clamp: ClampNeed,
                                       _ bytes: UnsafePointer<UInt8>,
                                       _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int
    /// bgr8 pixels through `matrix3ThreeByte`'s matrix and then the curve (in either form,
    /// as `curve` takes it), straight from row to row (the same row is fine); returns how
    /// many it did (none at a level without the loop: the caller goes through the BGRA
    /// buffer). Reads and writes nothing past the row's `width` pixels.
    public let matrixCurveThreeByte: @Sendable (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int,
                                                _ fixed: UnsafePointer<Int32>, _ bytes: UnsafePointer<UInt8>,
                                                _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int
    /// BGRA pixels through a per-channel curve, alpha kept. The curve comes in two forms,
    /// and a level uses the one it does best: `bytes`, three 256-byte tables (B, G, R; for
    /// in-register lookups), and the pair tables of `pairLookup`.
    public let curve: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                 _ bytes: UnsafePointer<UInt8>,
                                 _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int
    /// bgr8 pixels through the curve (in either form, as `curve` takes it), straight from
    /// row to row (the same row is fine); returns how many it did: the whole row with VBMI's
    /// byte permutes, whole steps of 8 at avx2 and avx512 (pair tables), none at baseline
    /// (the caller looks the rest up byte by byte). Reads and writes nothing past the row's
    /// `width` pixels.
    public let curveThreeByte: @Sendable (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int,
                                          _ bytes: UnsafePointer<UInt8>,
                                          _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int
    /// BGRA pixels `start..<end` through pair tables: `low[b | g << 8]` is the new B and G,
    /// `high[r | a << 8]` the new R and the kept A in bits 16…31.
    public let pairLookup: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ start: Int, _ end: Int,
                                      _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Void
    /// BGRA pixels to gray bytes with `LumaWeights` (14 fractional bits).
    public let luma: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int) -> Int
    /// bgr8 pixels to gray bytes, `luma`'s arithmetic, straight from the three-byte row;
    /// returns how many it did: the whole row at the avx512 level with VBMI, none elsewhere
    /// (the caller goes through a BGRA buffer). Reads and writes nothing past the row.
    public let lumaThreeByte: @Sendable (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int) -> Int
    /// BGRA vibrance; `amount` is the amount ×4096×256/255, rounded (see `Vibrance`).
    public let vibrance: @Sendable (_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                    _ amount: Int32) -> Int
    /// bgr8 vibrance with `vibrance`'s amount and arithmetic, straight from row to row (the
    /// same row is fine); returns how many it did: whole steps of 8 at avx2 and avx512, none
    /// at a level without the loop (the caller goes through the BGRA buffer). Reads and
    /// writes nothing past the row's `width` pixels.
    public let vibranceThreeByte: @Sendable (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int,
                                             _ amount: Int32) -> Int
    /// One row of blend-with-mask, `channels` samples a pixel and one mask byte a pixel:
    /// (f·m + b·(255 − m)) / 255, rounded, with the exact division by 255. Returns how many
    /// pixels it did (the caller does the rest; 0 for channel counts it leaves out).
    public let blend: @Sendable (_ foreground: UnsafePointer<UInt8>, _ background: UnsafePointer<UInt8>,
                                 _ mask: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ width: Int,
                                 _ channels: Int) -> Int
    /// One row of premultiplied source-over (top is BGRA, bottom and dst have `channels`);
    /// the whole row.
    public let sourceOver: @Sendable (_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>,
                                      _ dst: UnsafeMutablePointer<UInt8>, _ width: Int, _ channels: Int) -> Void
    /// Two rows of 16-bit blur samples as pairs: out[2i] = a[i], out[2i + 1] = b[i]; returns
    /// how many i it did (a multiple of 8; the caller does the rest).
    public let blurInterleave: @Sendable (_ a: UnsafePointer<Int16>, _ b: UnsafePointer<Int16>,
                                          _ out: UnsafeMutablePointer<Int16>, _ n: Int) -> Int
    /// Horizontal blur pass: `n` outputs, output i = (Σ_p pair (i + 2p·channels) · weight
    /// pair p + 64) >> 7, for p < `count`, with pair j = (s[j], s[j + channels]) of the
    /// padded row (`PortableKernels.blurHorizontal`). Returns how many it wrote.
    public let blurHorizontal: @Sendable (_ pairs: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>, _ n: Int,
                                          _ channels: Int, _ weights: UnsafePointer<SIMD16<Int16>>, _ count: Int) -> Int
    /// Vertical blur pass: `n` bytes, byte i = min(255, (Σ_p pair i of the ring row at
    /// slots[p] · weight pair p + 2^20) >> 21). Returns how many it wrote.
    public let blurVertical: @Sendable (_ ring: UnsafePointer<Int16>, _ slots: UnsafePointer<Int>,
                                        _ weights: UnsafePointer<SIMD16<Int16>>, _ count: Int,
                                        _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int
    /// The vertical pass for two output rows two apart: `slots` has count + 1 offsets, the
    /// first row combines slots 0..<count, the second 1...count (each as `blurVertical`).
    /// Returns how many bytes of each row it wrote.
    public let blurVerticalTwo: @Sendable (_ ring: UnsafePointer<Int16>, _ slots: UnsafePointer<Int>,
                                           _ weights: UnsafePointer<SIMD16<Int16>>, _ count: Int,
                                           _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                                           _ n: Int) -> Int
    /// Radial-gradient positions of one row: t[x] = clamp((|(x + 0.5 − centreX, dy)| − inner) / span, 0, 1)
    /// for x in 0..<width; `t` must hold `width` rounded up to a multiple of 16.
    public let gradient: @Sendable (_ t: UnsafeMutablePointer<Float>, _ width: Int, _ centreX: Float, _ dy: Float,
                                    _ inner: Float, _ span: Float) -> Void
    /// Radial-gradient BGRA pixels of one row: t as `gradient`'s, channel c = colours[c] +
    /// colours[4 + c]·t (inner colour B, G, R, A, then outer minus inner, on 0…255), rounded,
    /// clamped to 0…255.
    public let gradientBGRA: @Sendable (_ dst: UnsafeMutableRawPointer, _ width: Int, _ centreX: Float, _ dy: Float,
                                        _ inner: Float, _ span: Float, _ colours: UnsafePointer<Float>) -> Int
    /// A row of `width` 32-bit pixels set to `pattern` (a constant colour); the whole row.
    public let fill: @Sendable (_ dst: UnsafeMutableRawPointer, _ width: Int, _ pattern: UInt32) -> Void
    /// Resize, vertical pass: `n` Floats, out[i] = Σ rows[k][i]·weights[k] over `taps` byte rows.
    public let resizeVertical: @Sendable (_ rows: UnsafePointer<UnsafePointer<UInt8>>, _ weights: UnsafePointer<Float>,
                                          _ taps: Int, _ out: UnsafeMutablePointer<Float>, _ n: Int) -> Int
    /// Resize, horizontal pass: output pixel x = Σ row[starts[x] + k·channels + c]·weights[x·taps + k],
    /// rounded to a byte; `row` has one Float to spare past its last pixel.
    public let resizeHorizontal: @Sendable (_ row: UnsafePointer<Float>, _ starts: UnsafePointer<Int32>,
                                            _ weights: UnsafePointer<Float>, _ taps: Int,
                                            _ dst: UnsafeMutablePointer<UInt8>, _ width: Int, _ channels: Int) -> Int
    /// One row of Haar-cascade windows (`PortableKernels.cascadeRow`): the x of each window
    /// that passes every stage into `hits`; returns how many.
    public let cascadeRow: @Sendable (_ layout: UnsafeRawPointer, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>,
                                      _ maxX: Int, _ step: Int, _ hits: UnsafeMutablePointer<Int32>) -> Int

    /// bgr8 pixels 0..<n as BGRA with `alpha` (bits 24…31); returns how many it did (the
    /// caller widens the rest). Reads nothing past the n pixels.
    public let widenThreeByte: @Sendable (_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt32>, _ n: Int,
                                          _ alpha: UInt32) -> Int
    /// BGRA pixels 0..<n as bgr8; returns how many it did (the caller narrows the rest).
    /// Writes nothing past the n pixels.
    public let narrowThreeByte: @Sendable (_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int

    public init(name: String,
                matrix3: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, UnsafePointer<Float>, UnsafePointer<Int32>?,
                                              ClampNeed) -> Int,
                matrix3ThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int,
                                                       UnsafePointer<Int32>) -> Int,
                matrix4: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, UnsafePointer<Float>) -> Int,
                matrixCurve: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, UnsafePointer<Float>,
                                                  UnsafePointer<Int32>?, ClampNeed,
                                                  UnsafePointer<UInt8>, UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                matrixCurveThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int, UnsafePointer<Int32>,
                                                           UnsafePointer<UInt8>, UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                curve: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, UnsafePointer<UInt8>,
                                            UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                curveThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int, UnsafePointer<UInt8>,
                                                     UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Int,
                pairLookup: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, Int,
                                                 UnsafePointer<UInt16>, UnsafePointer<UInt32>) -> Void,
                luma: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Int,
                lumaThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Int,
                vibrance: @escaping @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer, Int, Int32) -> Int,
                vibranceThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int, Int32) -> Int,
                blend: @escaping @Sendable (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>,
                                            UnsafeMutablePointer<UInt8>, Int, Int) -> Int,
                sourceOver: @escaping @Sendable (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int, Int) -> Void,
                blurInterleave: @escaping @Sendable (UnsafePointer<Int16>, UnsafePointer<Int16>, UnsafeMutablePointer<Int16>, Int) -> Int,
                blurHorizontal: @escaping @Sendable (UnsafePointer<Int16>, UnsafeMutablePointer<Int16>, Int, Int,
                                                     UnsafePointer<SIMD16<Int16>>, Int) -> Int,
                blurVertical: @escaping @Sendable (UnsafePointer<Int16>, UnsafePointer<Int>, UnsafePointer<SIMD16<Int16>>, Int,
                                                   UnsafeMutablePointer<UInt8>, Int) -> Int,
                blurVerticalTwo: @escaping @Sendable (UnsafePointer<Int16>, UnsafePointer<Int>, UnsafePointer<SIMD16<Int16>>, Int,
                                                      UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Int,
                gradient: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Float, Float, Float, Float) -> Void,
                gradientBGRA: @escaping @Sendable (UnsafeMutableRawPointer, Int, Float, Float, Float, Float, UnsafePointer<Float>) -> Int,
                fill: @escaping @Sendable (UnsafeMutableRawPointer, Int, UInt32) -> Void,
                resizeVertical: @escaping @Sendable (UnsafePointer<UnsafePointer<UInt8>>, UnsafePointer<Float>, Int,
                                                     UnsafeMutablePointer<Float>, Int) -> Int,
                resizeHorizontal: @escaping @Sendable (UnsafePointer<Float>, UnsafePointer<Int32>, UnsafePointer<Float>, Int,
                                                       UnsafeMutablePointer<UInt8>, Int, Int) -> Int,
                cascadeRow: @escaping @Sendable (UnsafeRawPointer, UnsafePointer<Int32>, UnsafePointer<UInt32>, Int, Int,
                                                 UnsafeMutablePointer<Int32>) -> Int,
                widenThreeByte: @escaping @Sendable (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt32>, Int, UInt32) -> Int,
                narrowThreeByte: @escaping @Sendable (UnsafePointer<UInt32>, UnsafeMutablePointer<UInt8>, Int) -> Int) {
        self.name = name
        self.matrix3 = matrix3
        self.matrix3ThreeByte = matrix3ThreeByte
        self.matrixCurveThreeByte = matrixCurveThreeByte
        self.curveThreeByte = curveThreeByte
        self.matrix4 = matrix4
        self.matrixCurve = matrixCurve
        self.curve = curve
        self.pairLookup = pairLookup
        self.luma = luma
        self.lumaThreeByte = lumaThreeByte
        self.vibrance = vibrance
        self.vibranceThreeByte = vibranceThreeByte
        self.blend = blend
        self.sourceOver = sourceOver
        self.blurInterleave = blurInterleave
        self.blurHorizontal = blurHorizontal
        self.blurVertical = blurVertical
        self.blurVerticalTwo = blurVerticalTwo
        self.gradient = gradient
        self.gradientBGRA = gradientBGRA
        self.fill = fill
        self.resizeVertical = resizeVertical
        self.resizeHorizontal = resizeHorizontal
        self.cascadeRow = cascadeRow
        self.widenThreeByte = widenThreeByte
        self.narrowThreeByte = narrowThreeByte
    }
}

extension KernelTable {
    /// The portable kernels compiled for this module's target: SSE2 on x86-64 (any x86-64
    /// CPU), NEON on arm64. The level modules build their tables from the same source
    /// (`PortableKernels` is inlined into them), replacing the entries they do better.
    public static let portable = KernelTable(
        name: "baseline",
        matrix3: { PortableKernels.matrix3($0, $1, $2, $3, $4, $5) },
        matrix3ThreeByte: { _, _, _, _ in 0 },
        matrix4: { PortableKernels.matrix4($0, $1, $2, $3) },
        matrixCurve: { PortableKernels.matrixCurve($0, $1, $2, $3, $4, $5, $6, $7, $8) },
        matrixCurveThreeByte: { _, _, _, _, _, _, _ in 0 },
        curve: { PortableKernels.curve($0, $1, $2, $3, $4, $5) },
        curveThreeByte: { _, _, _, _, _, _ in 0 },
        pairLookup: { PortableKernels.pairLookup($0, $1, $2, $3, $4, $5) },
        luma: { PortableKernels.luma($0, $1, $2) },
        lumaThreeByte: { _, _, _ in 0 },
        vibrance: { PortableKernels.vibrance($0, $1, $2, $3) },
        vibranceThreeByte: { _, _, _, _ in 0 },
        blend: { PortableKernels.blend($0, $1, $2, $3, $4, $5) },
        sourceOver: { PortableKernels.sourceOver($0, $1, $2, $3, $4) },
        blurInterleave: { PortableKernels.blurInterleave($0, $1, $2, $3) },
        blurHorizontal: { PortableKernels.blurHorizontal($0, $1, $2, $3, $4, $5, PortableKernels.pairProducts) },
        blurVertical: { PortableKernels.blurVertical($0, $1, $2, $3, $4, $5, PortableKernels.pairProducts) },
        blurVerticalTwo: { PortableKernels.blurVerticalTwo($0, $1, $2, $3, $4, $5, $6, PortableKernels.pairProducts) },
        gradient: { PortableKernels.gradient($0, $1, $2, $3, $4, $5) },
        gradientBGRA: { PortableKernels.gradientBGRA($0, $1, $2, $3, $4, $5, $6) },
        fill: { PortableKernels.fill($0, $1, $2) },
        resizeVertical: { PortableKernels.resizeVertical($0, $1, $2, $3, $4) },
        resizeHorizontal: { PortableKernels.resizeHorizontal($0, $1, $2, $3, $4, $5, $6) },
        cascadeRow: { PortableKernels.cascadeRow($0, $1, $2, $3, $4, $5) },
        widenThreeByte: { PortableKernels.widenThreeByteExactly($0, $1, $2, $3) },
        narrowThreeByte: { PortableKernels.narrowToThreeByte($0, $1, $2); return $2 })
}
