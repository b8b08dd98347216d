/// The integral image and the integral of squares of one pyramid level, as OpenCV's
/// Haar evaluator builds them: 32-bit sums (squares wrap around, as OpenCV's CV_32S
/// ones do; window differences stay exact). Entry (x, y) is the sum over all pixels
/// left of x and above y, so the tables are one larger than the image each way.
///
/// Rows are `stride` entries apart, a stride fixed for every level of one image so that
/// feature offsets are computed once. Padding past the right and bottom edges lets
/// vector loads of windows beyond the last valid one stay inside the buffer.
struct IntegralImages {
    private(set) var sum: [Int32] = []
    private(set) var squares: [UInt32] = []
    private(set) var stride = 0
    private(set) var rows = 0

    /// Makes room for levels up to `maxWidth` x `maxHeight` pixels with `padding` spare entries.
    mutating func reserve(maxWidth: Int, maxHeight: Int, padding: Int) {
        let newStride = maxWidth + 1 + padding
        let newRows = maxHeight + 2 + padding / max(1, newStride) + 1
        if newStride != stride || newRows > rows {
            stride = newStride
            rows = newRows
            sum = .init(repeating: 0, count: stride * rows + padding)
            squares = .init(repeating: 0, count: stride * rows + padding)
        }
    }

    /// Fills the tables from a contiguous gray8 image.
    mutating func compute(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int) {
        precondition(width + 1 <= stride && height + 1 < rows, "integral buffers too small")
        let stride = self.stride
        sum.withUnsafeMutableBufferPointer { sp in
            squares.withUnsafeMutableBufferPointer { qp in
                let s = sp.baseAddress!, q = qp.baseAddress!
                for x in 0...width { s[x] = 0; q[x] = 0 }
                for y in 0..<height {
                    let row = pixels + y * width
                    let above = s + y * stride, aboveQ = q + y * stride
                    let cur = s + (y + 1) * stride, curQ = q + (y + 1) * stride
                    cur[0] = 0; curQ[0] = 0
                    var runSum: Int32 = 0
                    var runSq: UInt32 = 0
                    for x in 0..<width {
                        let v = Int32(row[x])
                        runSum &+= v
                        runSq &+= UInt32(v * v)
                        cur[x + 1] = above[x + 1] &+ runSum
                        curQ[x + 1] = aboveQ[x + 1] &+ runSq
                    }
                }
            }
        }
    }
}
