/// The colour matrix in 16-bit fixed point, the form the levels' integer matrix steps
/// (`vpmaddwd`, and `vpdpwssd` where AVX-512 VNNI exists) multiply with: no conversions
/// to and from float, no channel shuffles.
///
/// Each pixel's 32-bit lane is read as two 16-bit pairs: (B, R), and (G, 256), the constant
/// 256 standing in for alpha so that its weight carries the bias. A channel is the sum of
/// both pairs' products, B·wB + R·wR + G·wG + 256·wBias, shifted right by 13. The colour
/// weights are the matrix's times 2^13, rounded; wBias is (bias + ½) times 2^5, so 256·wBias
/// is the bias plus one half times 2^13, and shifting the sum right by 13 rounds half up.
/// The largest sum, 3 · 255 · 32,767 + 256 · 32,767, fits Int32. Error: at most
/// 3 · 255 · 2^-14 + 2^-7 ≈ 0.055 of a level from the rounded weights, so a result is within
/// one level of the float step's and of the exact one; the saturating packs clamp to 0…255
/// as in the float step.
///
/// The weights are worked out once per kernel (`weights(of:)`) and reach every level's
/// `matrix3` and `matrixCurve` as six Int32 words next to the float matrix (nil where the
/// matrix does not fit); what the level modules call is inlined by force (no out-of-line
/// copy whose symbol several modules would share, `KernelLevelTests`).
public enum FixedPointMatrix {
    /// The fixed-point weights of the 4 x 5 `matrix` (rows R, G, B, A on R, G, B, A, bias)
    /// as `wordCount` words (`weightPairs` reads them), or nil where it does not fit (the
    /// float steps run it). Worked out once per kernel, not per row (about 45 ns a row, 6 %
    /// of a 1080p frame near memory speed).
    public static func weights(of matrix: [Float]) -> [Int32]? {
        precondition(matrix.count == 20, "a colour matrix's coefficients are 4 x 5 floats")
        return matrix.withUnsafeBufferPointer { k in
            let k = k.baseAddress!
            guard matrixFits(k) else { return nil }
            let w = computeWeightPairs(k)
            return [w.blueRedB, w.greenBiasB, w.blueRedG, w.greenBiasG, w.blueRedR, w.greenBiasR]
        }
    }

    /// How many words `weights(of:)` gives.
    public static let wordCount = 6

    /// The weight words `w` (`weights(of:)`) as named 32-bit words of two 16-bit weights
    /// (the low half multiplies the pair's low word): per output channel B, G, R, the
    /// (B, R) pair and the (G, bias) pair. A level splats each word across a register.
    @inlinable @inline(__always)
    public static func weightPairs(_ w: UnsafePointer<Int32>)
        -> (blueRedB: Int32, greenBiasB: Int32, blueRedG: Int32, greenBiasG: Int32, blueRedR: Int32, greenBiasR: Int32) {
        (w[0], w[1], w[2], w[3], w[4], w[5])
    }

    // Scales as literals: the colour weights' is 2^13, the bias weight's 2^13 / 256 (it
    // multiplies 256); a channel's sum ends with an arithmetic shift right by 13 (an
    // immediate in each level's step).

    /// Whether the 4 x 5 matrix `k` fits: every colour weight below 4 in magnitude and every
    /// bias within about ±1,023, so that each weight fits 16 bits; all finite (a NaN fails
    /// every comparison). Other matrices take the float step.
    static func matrixFits(_ k: UnsafePointer<Float>) -> Bool {
        let colourScale: Float = 8192, biasScale: Float = 32
        for r in 0..<3 {
            let base = 5 &* r
            for c in 0..<3 where !((k[base &+ c] * colourScale).rounded().magnitude <= 32767) { return false }
            if !(((k[base &+ 4] + 0.5) * biasScale).rounded().magnitude <= 32767) { return false }
        }
        return true
    }
    /// The weight pairs of a 4 x 5 `matrix` that fits.
    static func computeWeightPairs(_ k: UnsafePointer<Float>)
        -> (blueRedB: Int32, greenBiasB: Int32, blueRedG: Int32, greenBiasG: Int32, blueRedR: Int32, greenBiasR: Int32) {
        let colourScale: Float = 8192, biasScale: Float = 32
        func pair(_ low: Float, _ high: Float) -> Int32 {
            let l = UInt32(UInt16(bitPattern: Int16(low.rounded()))), h = UInt32(UInt16(bitPattern: Int16(high.rounded())))
            return Int32(bitPattern: l | h &<< 16)
        }
        func row(_ r: Int) -> (blueRed: Int32, greenBias: Int32) {
            let base = 5 &* r
            return (pair(k[base &+ 2] * colourScale, k[base] * colourScale),
                    pair(k[base &+ 1] * colourScale, (k[base &+ 4] + 0.5) * biasScale))
        }
        let red = row(0), green = row(1), blue = row(2)
        return (blue.blueRed, blue.greenBias, green.blueRed, green.greenBias, red.blueRed, red.greenBias)
    }
}
