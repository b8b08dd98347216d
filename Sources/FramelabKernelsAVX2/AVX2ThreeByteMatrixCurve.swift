// Compiled into two modules: FramelabKernelsAVX2 and, through a symlink,
// FramelabKernelsAVX2VNNI (FRAMELAB_VNNI: `AVX2VNNIKernels` calls the fused row loop).
#if arch(x86_64)
import FramelabKernels
import _Builtin_intrinsics.intel

/// The fused matrix-then-curve loop straight on bgr8 rows (a recipe's colour matrices and
/// curves on what a camera or video decoder gives), and the curve alone the same way
/// (`curveThreeByte`, the matrix replaced by a widening shuffle): the fixed-point matrix on eight
/// three-byte pixels as in `matrix3ThreeByte`, its BGRA result into a 64-pixel ring, and the
/// pair-table lookups `lag` pixels behind from the ring into the row, three bytes a pixel.
/// Through the BGRA buffer (`PortableKernels.throughBGRA`) a row took a widening shuffle,
/// the fused BGRA loop and a narrowing shuffle: 1080p 2.43 ms at avx2 where the BGRA recipe
/// takes 1.29 (Xeon family 6 model 207).
#if !FRAMELAB_VNNI
extension AVX2Kernels {
    /// Pixels 0..<(a multiple of 8) of a bgr8 row, `s` to `d` (the same row is fine),
    /// through the matrix of the weight words `fixed` and then the pair tables `low` and
    /// `high` (`KernelTable.pairLookup`; the byte tables are not used here); returns how many
    /// it did. Reads and writes nothing past the row's `width` pixels.
    public static func matrixCurveThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                            _ fixed: UnsafePointer<Int32>, _ bytes: UnsafePointer<UInt8>,
                                            _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        avx2IntegerMatrixCurveThreeByteRow(s, d, width, fixed, low, high)
    }

    /// Pixels 0..<(a multiple of 8) of a bgr8 row, `s` to `d` (the same row is fine),
    /// through the pair tables `low` and `high` (the byte tables are not used here): the
    /// same loop without the matrix. Returns how many it did; reads and writes nothing past
    /// the row's `width` pixels.
    public static func curveThreeByte(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                      _ bytes: UnsafePointer<UInt8>,
                                      _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
        avx2CurveThreeByteRow(s, d, width, low, high)
    }
}
#endif

/// The loop of `AVX2Kernels.matrixCurveThreeByte`. Not inlined: one small loop with the
/// splats and shuffles in registers.
@inline(never)
func avx2IntegerMatrixCurveThreeByteRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                                        _ fixed: UnsafePointer<Int32>, _ low: UnsafePointer<UInt16>,
                                        _ high: UnsafePointer<UInt32>) -> Int {
    let c = avx2IntegerMatrixSplats(fixed), spreads = avx2ThreeByteSpreads()
    // B G R and a zero alpha per pixel (the high table's alpha byte is dropped).
    return avx2ThreeByteRingLookups(s, d, width, low, high) {
        _mm256_shuffle_epi8(avx2IntegerMatrixThreeBytePacked($0, c, spreads), c.interleave)
    }
}

#if !FRAMELAB_VNNI
/// The loop of `AVX2Kernels.curveThreeByte`: the ring's pixels are the row's, widened by
/// one byte shuffle. Not inlined, as above. (It multiplies nothing, so the VNNI module,
/// which compiles this file too, has no copy: the avx2+vnni table keeps the avx2 one.)
@inline(never)
func avx2CurveThreeByteRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                           _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>) -> Int {
    let spread = avx2ThreeByteToBGRA()
    return avx2ThreeByteRingLookups(s, d, width, low, high) { _mm256_shuffle_epi8(avx2LoadEightThreeByte($0), spread) }
}
#endif

/// Pixels 0..<(a multiple of 8) of a bgr8 row: `eight` makes the BGRA pixels of the eight
/// three-byte pixels at its argument, into a 64-pixel ring; the pair-table lookups follow
/// 32 pixels behind, from the ring into the row. A slot is read four steps after its store
/// and written again four steps after that, and the row's bytes a step loads lie 32 pixels
/// ahead of any store not yet done, so no load waits on an overlapping store (the curve
/// alone by 4-byte loads and stores in the row itself was slower than byte tables).
@inline(__always)
func avx2ThreeByteRingLookups(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ width: Int,
                              _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>,
                              _ eight: (UnsafeRawPointer) -> __m256i) -> Int {
    let lag = 32, slots = 63
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: slots &+ 1) { buffer in
        let ring = UnsafeMutableRawPointer(buffer.baseAddress!)
        var x = 0
        while x &+ 8 <= width {
            (ring + 4 &* (x & slots)).storeBytes(of: eight(UnsafeRawPointer(s + 3 &* x)), as: __m256i.self)
            if x >= lag {
                let y = x &- lag
                avx2PairLookupEightThreeByte(UnsafeRawPointer(ring + 4 &* (y & slots)), d + 3 &* y, low, high, exactLast: false)
            }
            x &+= 8
        }
        // The lookups the loop has not reached; the row's last pixel stored as three bytes.
        var y = Swift.max(0, x &- lag)
        while y < x {
            avx2PairLookupEightThreeByte(UnsafeRawPointer(ring + 4 &* (y & slots)), d + 3 &* y, low, high, exactLast: y &+ 8 == x)
            y &+= 8
        }
        return x
    }
}

/// Eight BGRA pixels at `p` through the pair tables, stored as bgr8 at `d`: each pixel one
/// 4-byte store whose fourth byte the next pixel's store overwrites (in place that byte's
/// input was read eight or more pixels earlier); with `exactLast` the eighth pixel is
/// stored as two bytes and one, so nothing lands past it.
@inline(__always)
func avx2PairLookupEightThreeByte(_ p: UnsafeRawPointer, _ d: UnsafeMutablePointer<UInt8>,
                                  _ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt32>, exactLast: Bool) {
    @inline(__always) func pixel(_ i: Int) -> UInt32 {
        let l = p.loadUnaligned(fromByteOffset: 4 &* i, as: UInt16.self)
        let h = p.loadUnaligned(fromByteOffset: 4 &* i &+ 2, as: UInt16.self)
        return UInt32(low[Int(l)]) | high[Int(h)]
    }
    @inline(__always) func four(_ i: Int) {
        UnsafeMutableRawPointer(d + 3 &* i).storeBytes(of: pixel(i), as: UInt32.self)
    }
    four(0); four(1); four(2); four(3); four(4); four(5); four(6)
    if exactLast {
        let last = pixel(7)
        UnsafeMutableRawPointer(d + 21).storeBytes(of: UInt16(truncatingIfNeeded: last), as: UInt16.self)
        d[23] = UInt8(truncatingIfNeeded: last &>> 16)
    } else {
        four(7)
    }
}
#endif
